import { Title } from '@mantine/core';

/** Placeholder: replaced by the page of issue #17. */
export function WorkspacesPage() {
  return <Title order={1}>WorkspacesPage</Title>;
}
