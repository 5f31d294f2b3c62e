import { Title } from '@mantine/core';

/** Placeholder: replaced by the page of issue #17. */
export function FormBuilderPage() {
  return <Title order={1}>FormBuilderPage</Title>;
}
