import { Title } from '@mantine/core';

/** Placeholder: built in this issue. */
export function SignInPage() {
  return <Title order={1}>SignInPage</Title>;
}
