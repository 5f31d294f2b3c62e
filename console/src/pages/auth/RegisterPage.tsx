import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function RegisterPage() {
  return <Title order={1}>RegisterPage</Title>;
}
