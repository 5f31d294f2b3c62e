import { Badge, Box, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatSlot } from '../poll-public/dates.ts';
import type { Section } from '../poll-public/types.ts';

/** A row of the Who voted list as far as this grid goes: the name and the meeting answers. */
interface GridRow {
  voter_name: string | null;
  created_at: string;
  choices_hidden: boolean;
  answers: Record<string, string[] | Record<string, string>>;
}

/** Each answer's colour: yes green, if need be yellow, no grey (as on the voting page). */
const COLOR: Record<string, string> = { yes: 'green', if_need_be: 'yellow', no: 'gray' };

/**
 * Who can come when (issue 37, part 2; docs/console.md, "Who voted"): one meeting section's
 * answers as a grid, a row per participant (name and when they answered) and a column per slot,
 * each cell the participant's
 * answer in words and colour (a slot a voter left out reads "No", as the service counts it). The
 * rows are the Who voted list's current page; the grid scrolls sideways inside itself when the
 * slots do not fit, with the names kept in view.
 */
export function MeetingGrid({
  section,
  rows,
  anonymousLabel,
}: {
  section: Section;
  rows: GridRow[];
  anonymousLabel: string;
}) {
  const { t, i18n } = useTranslation(['results', 'vote']);
  const titleId = `meeting-grid-${section.id}`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <div>
        <Title order={3} size="h4" id={titleId}>
          {t('participants.grid.title', { section: section.title })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('participants.grid.hint')}
        </Text>
      </div>
      {/* Scrolls sideways inside itself: focusable so a keyboard can scroll it (axe). */}
      <Box
        tabIndex={0}
        role="group"
        aria-labelledby={titleId}
        style={{ overflowX: 'auto' }}
        data-testid="meeting-grid-scroll"
      >
        <Table
          verticalSpacing="xs"
          withColumnBorders
          miw={120 + 110 * section.options.length}
          data-testid="meeting-grid"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th
                scope="col"
                style={{ position: 'sticky', left: 0, background: 'var(--mantine-color-body)' }}
              >
                {t('participants.name')}
              </Table.Th>
              {section.options.map((o) => (
                <Table.Th scope="col" key={o.id}>
                  <Text size="sm" fw={600}>
                    {o.label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatSlot(o.starts_at ?? null, o.ends_at ?? null, i18n.resolvedLanguage)}
                  </Text>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => {
              const answer = row.answers[section.id];
              const of = (id: string) => (answer && !Array.isArray(answer) ? (answer[id] ?? 'no') : 'no');
              return (
                <Table.Tr key={i}>
                  <Table.Th
                    scope="row"
                    style={{
                      position: 'sticky',
                      left: 0,
                      background: 'var(--mantine-color-body)',
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {row.voter_name || anonymousLabel}
                    <Text size="xs" c="dimmed" fw={400}>
                      {formatDateTime(row.created_at, i18n.resolvedLanguage)}
                    </Text>
                  </Table.Th>
                  {section.options.map((o) => (
                    <Table.Td key={o.id} data-answer={of(o.id)}>
                      <Badge color={COLOR[of(o.id)]} variant="light" radius="sm">
                        {t(`vote:kinds.availability.${of(o.id)}`)}
                      </Badge>
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Box>
    </Stack>
  );
}
