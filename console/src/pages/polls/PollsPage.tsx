import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function PollsPage() {
  return <Title order={1}>PollsPage</Title>;
}
