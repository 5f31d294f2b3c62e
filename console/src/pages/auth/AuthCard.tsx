import type { ReactNode } from 'react';
import { Paper, Stack, Title } from '@mantine/core';

/** The frame of the sign-in and register forms: a titled card, full width on a phone. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={440} mx="auto" mt={{ base: 0, sm: 'xl' }}>
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
