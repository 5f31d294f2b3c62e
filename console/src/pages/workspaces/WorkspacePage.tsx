import { Title } from '@mantine/core';

/** Placeholder: replaced by the page of issue #17. */
export function WorkspacePage() {
  return <Title order={1}>WorkspacePage</Title>;
}
