import { useMemo } from 'react';
import { Anchor, Divider, Drawer, Group, Image, Stack, Text, Timeline, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Field } from '../collection/types.ts';
import { GeopointAnswer } from './GeopointAnswer.tsx';
import { ReviewForm } from './ReviewForm.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { useSubmission } from './use-submissions.ts';
import { answerText, answersOf, isGeopoint, isPhoto } from './values.ts';

/**
 * The detail of one submission in a side drawer (full screen on a phone): every answer under
 * its field's label (photos shown, geopoints with their coordinates and a small map), the
 * submission's own location, its status history (oldest first, with who and the comment), and
 * the review action for the roles that may review.
 */
export function SubmissionDrawer(props: {
  projectId: number;
  submissionId: number | undefined;
  fields: Field[];
  userName: (id: number | null) => string;
  mayReview: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['submissions', 'collection']);
  const when = useFormatInstant();
  const locale = i18n.resolvedLanguage ?? 'en';
  const submission = useSubmission(props.projectId, props.submissionId);
  const s = submission.data;
  const answers = useMemo(() => (s ? answersOf(s) : new Map<string, unknown>()), [s]);
  return (
    <Drawer
      opened={props.submissionId !== undefined}
      onClose={props.onClose}
      position="right"
      size="lg"
      title={props.submissionId ? t('drawer.title', { id: props.submissionId }) : ''}
      closeButtonProps={{ 'aria-label': t('drawer.close') }}
    >
      {submission.isPending ? (
        <PageLoader />
      ) : submission.error ? (
        <ProblemAlert error={submission.error} />
      ) : s ? (
        <Stack gap="md">
          <Group gap="sm">
            <StatusBadge status={s.status} />
            <Text size="sm" c="dimmed">
              {t('drawer.by', { who: props.userName(s.collector_id), when: when(s.created_at) })}
            </Text>
          </Group>
          <Stack gap="sm" component="dl" m={0}>
            {props.fields.map((f) => {
              const value = answers.get(f.uuid);
              return (
                <div key={f.uuid}>
                  <Text component="dt" fw={600} size="sm">
                    {f.label}
                  </Text>
                  <Text component="dd" m={0} size="sm" style={{ wordBreak: 'break-word' }}>
                    {isPhoto(value) ? (
                      <Anchor href={value.url} target="_blank" rel="noreferrer">
                        <Image
                          src={value.url}
                          alt={t('drawer.photoOf', { label: f.label })}
                          maw={320}
                          radius="sm"
                        />
                      </Anchor>
                    ) : isGeopoint(value) ? (
                      <GeopointAnswer value={value} label={f.label} />
                    ) : value === null || value === undefined || value === '' ? (
                      <Text span c="dimmed" size="sm">
                        {t('drawer.noAnswer')}
                      </Text>
                    ) : (
                      answerText(f, value, locale, t('table.photo'))
                    )}
                  </Text>
                </div>
              );
            })}
            {s.latitude !== null && s.longitude !== null ? (
              <div>
                <Text component="dt" fw={600} size="sm">
                  {t('drawer.location')}
                </Text>
                <Text component="dd" m={0} size="sm">
                  <GeopointAnswer
                    value={[s.latitude, s.longitude, s.altitude ?? undefined, s.precision ?? undefined]}
                    label={t('drawer.location')}
                  />
                </Text>
              </div>
            ) : null}
          </Stack>
          <Divider />
          <Title order={3} size="h4">
            {t('drawer.history')}
          </Title>
          <Timeline bulletSize={14} lineWidth={2} active={(s.history?.length ?? 1) - 1}>
            {(s.history ?? []).map((h, i) => (
              <Timeline.Item
                key={i}
                title={
                  h.from_status
                    ? t('drawer.changed', {
                        from: t(`collection:status.${h.from_status}`),
                        to: t(`collection:status.${h.to_status}`),
                      })
                    : t('drawer.created', { to: t(`collection:status.${h.to_status}`) })
                }
              >
                <Text size="xs" c="dimmed">
                  {t('drawer.byWhen', { who: props.userName(h.user_id), when: when(h.created_at) })}
                </Text>
                {h.comment ? <Text size="sm">“{h.comment}”</Text> : null}
              </Timeline.Item>
            ))}
          </Timeline>
          {props.mayReview ? (
            <>
              <Divider />
              <Title order={3} size="h4">
                {t('review.title')}
              </Title>
              <ReviewForm key={`${s.id}-${s.status}`} submission={s} />
            </>
          ) : null}
        </Stack>
      ) : null}
    </Drawer>
  );
}
