import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function PollEditorPage() {
  return <Title order={1}>PollEditorPage</Title>;
}
