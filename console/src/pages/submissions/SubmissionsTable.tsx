import { Anchor, Checkbox, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import type { Field, Submission } from '../collection/types.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { answerText, answersOf, isPhoto } from './values.ts';

/** The first columns stay in view while the answers scroll sideways (phones, long forms). */
const STICKY = { position: 'sticky', left: 0, zIndex: 1, background: 'var(--mantine-color-body)' } as const;

/**
 * One page of submissions: a row each with its selection box (for bulk review), id (opens the
 * detail drawer), status, collector, creation time, then one column per field of the form, in
 * form order. Photos show as a link to the photo, choices by their labels.
 */
export function SubmissionsTable(props: {
  submissions: Submission[];
  fields: Field[];
  collectorName: (id: number | null) => string;
  selectable: boolean;
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], on: boolean) => void;
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useTranslation(['submissions', 'collection']);
  const when = useFormatInstant();
  const locale = i18n.resolvedLanguage ?? 'en';
  const ids = props.submissions.map((s) => s.id);
  const selectedHere = ids.filter((id) => props.selected.has(id)).length;
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table striped highlightOnHover aria-label={t('table.label')} style={{ whiteSpace: 'nowrap' }}>
        <Table.Thead>
          <Table.Tr>
            {props.selectable ? (
              <Table.Th style={STICKY}>
                <Checkbox
                  aria-label={t('table.selectPage')}
                  checked={selectedHere > 0 && selectedHere === ids.length}
                  indeterminate={selectedHere > 0 && selectedHere < ids.length}
                  onChange={(e) => props.onSelect(ids, e.currentTarget.checked)}
                />
              </Table.Th>
            ) : null}
            <Table.Th scope="col" style={props.selectable ? undefined : STICKY}>
              {t('table.id')}
            </Table.Th>
            <Table.Th scope="col">{t('table.status')}</Table.Th>
            <Table.Th scope="col">{t('table.collector')}</Table.Th>
            <Table.Th scope="col">{t('table.created')}</Table.Th>
            {props.fields.map((f) => (
              <Table.Th scope="col" key={f.uuid} title={f.name}>
                {f.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.submissions.map((s) => {
            const answers = answersOf(s);
            return (
              <Table.Tr key={s.id} data-submission={s.id}>
                {props.selectable ? (
                  <Table.Td style={STICKY}>
                    <Checkbox
                      aria-label={t('table.select', { id: s.id })}
                      checked={props.selected.has(s.id)}
                      onChange={(e) => props.onSelect([s.id], e.currentTarget.checked)}
                    />
                  </Table.Td>
                ) : null}
                <Table.Th scope="row" style={props.selectable ? undefined : STICKY}>
                  <UnstyledButton
                    onClick={() => props.onOpen(s.id)}
                    aria-label={t('table.open', { id: s.id })}
                    c="var(--mantine-primary-color-filled)"
                    fw={600}
                    td="underline"
                  >
                    #{s.id}
                  </UnstyledButton>
                </Table.Th>
                <Table.Td>
                  <StatusBadge status={s.status} />
                </Table.Td>
                <Table.Td>{props.collectorName(s.collector_id)}</Table.Td>
                <Table.Td>{when(s.created_at)}</Table.Td>
                {props.fields.map((f) => {
                  const value = answers.get(f.uuid);
                  return (
                    <Table.Td key={f.uuid} maw={280} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                      {isPhoto(value) ? (
                        <Anchor href={value.url} target="_blank" rel="noreferrer">
                          {t('table.photo')}
                        </Anchor>
                      ) : (
                        <Text span size="sm">
                          {answerText(f, value, locale, t('table.photo'))}
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
