import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

/** The product's name, linking home. */
export function Brand() {
  return (
    <Anchor component={Link} to="/" underline="never" c="inherit">
      <Group gap={6} wrap="nowrap">
        <img src="/favicon.svg" alt="" width={24} height={24} />
        <Text fw={700} size="lg">
          Fieldhouse
        </Text>
      </Group>
    </Anchor>
  );
}
