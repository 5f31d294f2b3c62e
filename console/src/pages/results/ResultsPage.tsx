import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function ResultsPage() {
  return <Title order={1}>ResultsPage</Title>;
}
