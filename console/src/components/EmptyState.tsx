import type { ReactNode } from 'react';
import { Paper, Stack, Text } from '@mantine/core';

/**
 * What an empty list shows: what goes here (`title`), what to do next (`text`) and the action
 * that does it (`action`: a button or link, omitted when the user may not take it; `text` then
 * says who may). Marked `data-empty-state` for tests.
 */
export function EmptyState(props: { title: string; text: ReactNode; action?: ReactNode }) {
  return (
    <Paper withBorder p="lg" data-empty-state style={{ borderStyle: 'dashed' }}>
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{props.title}</Text>
        <Text size="sm">{props.text}</Text>
        {props.action ?? null}
      </Stack>
    </Paper>
  );
}
