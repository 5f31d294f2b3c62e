import { Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import type { Field, Submission } from '../collection/types.ts';
import type { SubmissionVersion } from './use-submission-edit.ts';
import { answerText, geopointText } from './values.ts';

type StatusChange = NonNullable<Submission['history']>[number];

/** One line of the history: a status change or an edit, with its time for ordering. */
type Item =
  | { at: string; status: StatusChange; edit?: never }
  | { at: string; edit: SubmissionVersion; status?: never };

/**
 * A submission's history, oldest first: its status changes (with the comment) and its edits
 * (each answer that changed as "label: before → after", and the location), each with the
 * person's name and the time. Names come from the answers (`user_name`), else from `userName`.
 */
export function SubmissionHistory(props: {
  history: StatusChange[];
  versions: SubmissionVersion[];
  /** How many edits there are (more than `versions` when the oldest were not fetched). */
  totalVersions: number;
  fields: Field[];
  userName: (id: number | null) => string;
}) {
  const { t, i18n } = useTranslation(['submissions', 'collection']);
  const when = useFormatInstant();
  const locale = i18n.resolvedLanguage ?? 'en';
  const byUuid = new Map(props.fields.map((f) => [f.uuid, f]));
  const who = (id: number | null, name: string | null | undefined) => name ?? props.userName(id);
  const items: Item[] = [
    ...props.history.map((status) => ({ at: status.created_at, status })),
    ...props.versions.map((edit) => ({ at: edit.created_at, edit })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const value = (field: Field | undefined, v: unknown) =>
    v === null || v === undefined || v === ''
      ? t('drawer.noAnswer')
      : field
        ? answerText(field, v, locale, t('table.photo'))
        : typeof v === 'string'
          ? v
          : JSON.stringify(v);
  const place = (l: { latitude: number | null; longitude: number | null; precision: number | null }) =>
    l.latitude === null || l.longitude === null
      ? t('drawer.noAnswer')
      : geopointText([l.latitude, l.longitude, undefined, l.precision ?? undefined], locale);

  return (
    <>
      {props.totalVersions > props.versions.length ? (
        <Text size="sm" c="dimmed">
          {t('history.older', { count: props.totalVersions - props.versions.length })}
        </Text>
      ) : null}
      <Timeline bulletSize={14} lineWidth={2} active={items.length - 1}>
        {items.map((item) =>
          item.status ? (
            <Timeline.Item
              key={`s-${item.at}-${item.status.to_status}`}
              title={
                item.status.from_status
                  ? t('drawer.changed', {
                      from: t(`collection:status.${item.status.from_status}`),
                      to: t(`collection:status.${item.status.to_status}`),
                    })
                  : t('drawer.created', { to: t(`collection:status.${item.status.to_status}`) })
              }
            >
              <Text size="xs" c="dimmed">
                {t('drawer.byWhen', {
                  who: who(item.status.user_id, item.status.user_name),
                  when: when(item.status.created_at),
                })}
              </Text>
              {item.status.comment ? <Text size="sm">“{item.status.comment}”</Text> : null}
            </Timeline.Item>
          ) : (
            <Timeline.Item
              key={`v-${item.edit.number}`}
              title={t('history.edited', { number: item.edit.number })}
            >
              <Text size="xs" c="dimmed">
                {t('drawer.byWhen', {
                  who: who(item.edit.user_id, item.edit.user_name),
                  when: when(item.edit.created_at),
                })}
              </Text>
              <ul style={{ margin: 0, paddingInlineStart: '1.1rem' }}>
                {item.edit.changes.map((c) => {
                  const field = byUuid.get(c.field_uuid);
                  return (
                    <li key={c.field_uuid}>
                      <Text size="sm" span style={{ wordBreak: 'break-word' }}>
                        {t('history.change', {
                          label: field?.label ?? t('history.unknownField'),
                          before: value(field, c.before),
                          after: value(field, c.after),
                        })}
                      </Text>
                    </li>
                  );
                })}
                {item.edit.location ? (
                  <li>
                    <Text size="sm" span>
                      {t('history.change', {
                        label: t('drawer.location'),
                        before: place(item.edit.location.before),
                        after: place(item.edit.location.after),
                      })}
                    </Text>
                  </li>
                ) : null}
              </ul>
            </Timeline.Item>
          ),
        )}
      </Timeline>
    </>
  );
}
