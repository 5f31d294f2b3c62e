import { useEffect, useRef } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconLanguageOff,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState.tsx';
import { isContainer, type ModelField } from './field-form.ts';
import { childrenOf, untranslated } from './field-tree.ts';

/** What a field's constraints say, in words ("1 to 20", "at most 80 characters", "3 choices"). */
function useConstraintSummary() {
  const { t } = useTranslation('formBuilder');
  return (f: ModelField) => {
    const c = f.constraints;
    const parts: string[] = [];
    if (c.min !== undefined) parts.push(t('summary.min', { min: c.min }));
    if (c.max !== undefined) parts.push(t('summary.max', { max: c.max }));
    if (c.max_length !== undefined) parts.push(t('summary.maxLength', { max: c.max_length }));
    if (c.pattern) parts.push(t('summary.pattern', { pattern: c.pattern }));
    if (f.choices?.length) parts.push(t('summary.choices', { count: f.choices.length }));
    if (f.relevant) parts.push(t('summary.relevant', { expression: f.relevant }));
    if (f.calculation) parts.push(`= ${f.calculation}`);
    if (f.type === 'repeat' && f.repeat_count !== null && f.repeat_count !== undefined)
      parts.push(t('summary.repeatCount', { count: String(f.repeat_count) }));
    return parts.join(' · ');
  };
}

/**
 * The fields of a version as a tree in form order: members of a group or repeat indented under
 * it. On a draft each has edit, move up/down among its siblings (named after the field; at the
 * first or last place of a group, up/down takes it out of the group, before or after it), and
 * remove; a group or repeat has "add inside". Fields lacking a text in one of `languages` are
 * marked. A published version lists them read-only. An empty draft says what to do next.
 */
export function FieldsList(props: {
  fields: ModelField[];
  editable: boolean;
  busy: boolean;
  /** The version's languages other than the default (for the untranslated marker). */
  languages: readonly string[];
  onEdit: (f: ModelField) => void;
  /** Puts `f` in `parent` ('' for the top level) at index `to` among its siblings there. */
  onMove: (f: ModelField, parent: string, to: number) => void;
  onRemove: (f: ModelField) => void;
  onAdd: (parent?: string) => void;
}) {
  const { t } = useTranslation(['formBuilder', 'collection']);
  /**
   * The field being moved and where it goes: once the list shows it there (the PUTs done and
   * the list refetched), the focus goes back to its move button in the same direction (or the
   * other, at an end), so the keyboard can go on.
   */
  const moved = useRef<{ name: string; parent: string; to: number; up: boolean } | null>(null);
  const { fields, busy } = props;
  useEffect(() => {
    const m = moved.current;
    if (!m || busy || childrenOf(fields, m.parent)[m.to]?.name !== m.name) return;
    moved.current = null;
    const buttons = [
      ...document.querySelectorAll<HTMLButtonElement>(
        `[data-field-name="${m.name}"] > div > [data-field-head] [data-move]`,
      ),
    ];
    const wanted = buttons.find((b) => b.dataset.move === (m.up ? 'up' : 'down') && !b.disabled);
    (wanted ?? buttons.find((b) => !b.disabled))?.focus();
  }, [fields, busy]);
  const onMove = (f: ModelField, parent: string, to: number, up: boolean) => {
    moved.current = { name: f.name, parent, to, up };
    props.onMove(f, parent, to);
  };
  if (props.fields.length === 0)
    return (
      <EmptyState
        title={t('fields.empty')}
        text={props.editable ? t('fields.emptyText') : t('fields.emptyReadOnly')}
        action={
          props.editable ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => props.onAdd()}>
              {t('fields.addFirst')}
            </Button>
          ) : undefined
        }
      />
    );
  return <Level {...props} onMoveTo={onMove} parent="" depth={0} />;
}

function Level(
  props: Parameters<typeof FieldsList>[0] & {
    parent: string;
    depth: number;
    onMoveTo: (f: ModelField, parent: string, to: number, up: boolean) => void;
  },
) {
  const { t } = useTranslation(['formBuilder', 'collection']);
  const summary = useConstraintSummary();
  const siblings = childrenOf(props.fields, props.parent);
  const byName = new Map(props.fields.map((f) => [f.name, f]));
  const up = (f: ModelField, i: number) => {
    const move = (parent: string, to: number) => props.onMoveTo(f, parent, to, true);
    if (i > 0) return move(props.parent, i - 1);
    const container = byName.get(props.parent);
    if (!container) return;
    const outer = container.parent ?? '';
    move(
      outer,
      childrenOf(props.fields, outer).findIndex((x) => x.name === container.name),
    );
  };
  const down = (f: ModelField, i: number) => {
    const move = (parent: string, to: number) => props.onMoveTo(f, parent, to, false);
    if (i < siblings.length - 1) return move(props.parent, i + 1);
    const container = byName.get(props.parent);
    if (!container) return;
    const outer = container.parent ?? '';
    move(outer, childrenOf(props.fields, outer).findIndex((x) => x.name === container.name) + 1);
  };
  const top = props.parent === '';
  if (siblings.length === 0) return null;
  return (
    <Stack
      gap="xs"
      component="ol"
      p={0}
      m={0}
      style={{ listStyle: 'none' }}
      aria-label={
        top ? t('fields.label') : t('fields.inside', { label: byName.get(props.parent)?.label ?? '' })
      }
    >
      {siblings.map((f, i) => {
        const missing = untranslated(f, props.languages);
        return (
          <li key={f.id} data-field-name={f.name}>
            <Paper
              withBorder
              p="sm"
              bg={isContainer(f.type) ? 'var(--mantine-color-default-hover)' : undefined}
            >
              <Group justify="space-between" wrap="wrap" align="flex-start" gap="xs" data-field-head>
                <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {f.label || f.name}
                    </Text>
                    <Badge variant="light" size="sm" color={isContainer(f.type) ? 'grape' : undefined}>
                      {t(f.type in TYPE_KEYS ? TYPE_KEYS[f.type]! : `collection:fieldTypes.${f.type}`)}
                    </Badge>
                    {f.required ? (
                      <Badge variant="outline" size="sm" color="red">
                        {t('fields.required')}
                      </Badge>
                    ) : null}
                    {missing.length ? (
                      <Badge
                        variant="light"
                        size="sm"
                        color="orange"
                        leftSection={<IconLanguageOff size={12} aria-hidden />}
                      >
                        {t('fields.untranslated', { languages: missing.join(', ') })}
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
                      disabled={(i === 0 && top) || props.busy}
                      aria-label={t(i === 0 && !top ? 'fields.moveOutUp' : 'fields.moveUp', {
                        label: f.label || f.name,
                      })}
                      data-move="up"
                      onClick={() => up(f, i)}
                    >
                      <IconArrowUp size={18} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      size="lg"
                      disabled={(i === siblings.length - 1 && top) || props.busy}
                      aria-label={t(
                        i === siblings.length - 1 && !top ? 'fields.moveOutDown' : 'fields.moveDown',
                        {
                          label: f.label || f.name,
                        },
                      )}
                      data-move="down"
                      onClick={() => down(f, i)}
                    >
                      <IconArrowDown size={18} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      size="lg"
                      aria-label={t('fields.edit', { label: f.label || f.name })}
                      onClick={() => props.onEdit(f)}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={t('fields.remove', { label: f.label || f.name })}
                      onClick={() => props.onRemove(f)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Group>
                ) : null}
              </Group>
              {isContainer(f.type) ? (
                <Stack
                  gap="xs"
                  mt="xs"
                  pl={{ base: 'xs', sm: 'md' }}
                  style={{ borderLeft: '3px solid var(--mantine-color-grape-4)' }}
                >
                  <Level {...props} parent={f.name} depth={props.depth + 1} />
                  {props.editable ? (
                    <Button
                      variant="subtle"
                      size="xs"
                      leftSection={<IconPlus size={14} aria-hidden />}
                      onClick={() => props.onAdd(f.name)}
                      style={{ alignSelf: 'flex-start' }}
                    >
                      {t('fields.addInside', { label: f.label || f.name })}
                    </Button>
                  ) : null}
                </Stack>
              ) : null}
            </Paper>
          </li>
        );
      })}
    </Stack>
  );
}

/** Locale keys of the form model's types (the others are collection:fieldTypes.*). */
const TYPE_KEYS: Partial<Record<string, string>> = {
  group: 'types.group',
  repeat: 'types.repeat',
  note: 'types.note',
  calculate: 'types.calculate',
};
