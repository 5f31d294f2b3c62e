import { ActionIcon, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState.tsx';
import type { Field } from '../collection/types.ts';

/** What a field's constraints say, in words ("1 to 20", "at most 80 characters", "3 choices"). */
function useConstraintSummary() {
  const { t } = useTranslation('formBuilder');
  return (f: Field) => {
    const c = f.constraints;
    const parts: string[] = [];
    if (c.min !== undefined) parts.push(t('summary.min', { min: c.min }));
    if (c.max !== undefined) parts.push(t('summary.max', { max: c.max }));
    if (c.max_length !== undefined) parts.push(t('summary.maxLength', { max: c.max_length }));
    if (c.pattern) parts.push(t('summary.pattern', { pattern: c.pattern }));
    if (f.choices?.length) parts.push(t('summary.choices', { count: f.choices.length }));
    return parts.join(' · ');
  };
}

/**
 * The fields of a version in form order. On a draft each has edit, move up/down (each named
 * after the field) and remove; a published version lists them read-only. An empty draft says
 * what to do next, with "add the first field" (`onAdd`).
 */
export function FieldsList(props: {
  fields: Field[];
  editable: boolean;
  busy: boolean;
  onEdit: (f: Field) => void;
  onMove: (f: Field, to: number) => void;
  onRemove: (f: Field) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation(['formBuilder', 'collection']);
  const summary = useConstraintSummary();
  if (props.fields.length === 0)
    return (
      <EmptyState
        title={t('fields.empty')}
        text={props.editable ? t('fields.emptyText') : t('fields.emptyReadOnly')}
        action={
          props.editable ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={props.onAdd}>
              {t('fields.addFirst')}
            </Button>
          ) : undefined
        }
      />
    );
  return (
    <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('fields.label')}>
      {props.fields.map((f, i) => (
        <Paper component="li" key={f.id} withBorder p="sm" data-field-name={f.name}>
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs" wrap="wrap">
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {f.label}
                </Text>
                <Badge variant="light" size="sm">
                  {t(`collection:fieldTypes.${f.type}`)}
                </Badge>
                {f.required ? (
                  <Badge variant="outline" size="sm" color="red">
                    {t('fields.required')}
                  </Badge>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {f.name}
                {summary(f) ? ` · ${summary(f)}` : ''}
              </Text>
            </Stack>
            {props.editable ? (
              <Group gap={2} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  size="lg"
                  disabled={i === 0 || props.busy}
                  aria-label={t('fields.moveUp', { label: f.label })}
                  onClick={() => props.onMove(f, i - 1)}
                >
                  <IconArrowUp size={18} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  size="lg"
                  disabled={i === props.fields.length - 1 || props.busy}
                  aria-label={t('fields.moveDown', { label: f.label })}
                  onClick={() => props.onMove(f, i + 1)}
                >
                  <IconArrowDown size={18} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  size="lg"
                  aria-label={t('fields.edit', { label: f.label })}
                  onClick={() => props.onEdit(f)}
                >
                  <IconPencil size={18} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={t('fields.remove', { label: f.label })}
                  onClick={() => props.onRemove(f)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Group>
            ) : null}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
