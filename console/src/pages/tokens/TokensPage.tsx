import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function TokensPage() {
  return <Title order={1}>TokensPage</Title>;
}
