import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataEntry, Field } from '../collection/types.ts';

/** Whether a version's fields have groups, repeats, notes or calculations (form-model.md). */
export const hasStructure = (fields: readonly Field[]): boolean =>
  fields.some((f) => f.parent || ['group', 'repeat', 'note', 'calculate'].includes(f.type));

/**
 * A submission's answers laid out as its form (form-model.md): groups as headed sections,
 * repeats as headed sections with one numbered block per instance ("Member 2 of 3"), each answer
 * under its label; notes are left out (never answered). `renderValue` shows one answer (photos,
 * geopoints...) as the drawer does for flat forms.
 */
export function StructuredAnswers(props: {
  fields: readonly Field[];
  data: readonly DataEntry[];
  renderValue: (field: Field, value: unknown) => ReactNode;
}) {
  const children = new Map<string | null, Field[]>();
  for (const f of props.fields) {
    const key = f.parent ?? null;
    children.set(key, [...(children.get(key) ?? []), f]);
  }
  for (const list of children.values()) list.sort((a, b) => a.position - b.position);
  return <Level {...props} parent={null} children={children} entries={props.data} depth={3} />;
}

function Level(props: {
  parent: string | null;
  children: Map<string | null, Field[]>;
  entries: readonly DataEntry[];
  renderValue: (field: Field, value: unknown) => ReactNode;
  depth: number;
}) {
  const { t } = useTranslation('submissions');
  const values = new Map(props.entries.map((e) => [e.field_uuid, e.value]));
  const blocks: ReactNode[] = [];
  let run: ReactNode[] = [];
  const flush = () => {
    if (run.length)
      blocks.push(
        <Stack key={`dl-${blocks.length}`} gap="sm" component="dl" m={0}>
          {run}
        </Stack>,
      );
    run = [];
  };
  const order = Math.min(props.depth, 6) as 3 | 4 | 5 | 6;
  for (const f of props.children.get(props.parent) ?? []) {
    if (f.type === 'note') continue;
    if (f.type === 'group') {
      flush();
      blocks.push(
        <Stack key={f.uuid} gap="xs" component="section" aria-label={f.label}>
          <Title order={order} size="h5">
            {f.label}
          </Title>
          <Paper withBorder p="sm">
            <Level {...props} parent={f.name} depth={props.depth + 1} />
          </Paper>
        </Stack>,
      );
    } else if (f.type === 'repeat') {
      flush();
      const instances = Array.isArray(values.get(f.uuid)) ? (values.get(f.uuid) as DataEntry[][]) : [];
      blocks.push(
        <Stack key={f.uuid} gap="xs" component="section" aria-label={f.label}>
          <Title order={order} size="h5">
            {f.label}
          </Title>
          {instances.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('drawer.noInstance')}
            </Text>
          ) : null}
          {instances.map((entries, i) => (
            <Paper key={i} withBorder p="sm">
              <Stack gap="xs">
                <Text fw={600} size="sm">
                  {t('drawer.instance', { label: f.label, n: i + 1, count: instances.length })}
                </Text>
                <Level
                  {...props}
                  parent={f.name}
                  entries={Array.isArray(entries) ? entries : []}
                  depth={props.depth + 1}
                />
              </Stack>
            </Paper>
          ))}
        </Stack>,
      );
    } else {
      run.push(
        <div key={f.uuid}>
          <Text component="dt" fw={600} size="sm">
            {f.label}
          </Text>
          <Text component="dd" m={0} size="sm" style={{ wordBreak: 'break-word' }}>
            {props.renderValue(f, values.get(f.uuid))}
          </Text>
        </div>,
      );
    }
  }
  flush();
  return <Stack gap="md">{blocks}</Stack>;
}
