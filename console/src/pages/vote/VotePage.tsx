import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function VotePage() {
  return <Title order={1}>VotePage</Title>;
}
