import { lazy, Suspense, useMemo, useState } from 'react';
import { Anchor, Button, Divider, Drawer, Group, Image, Stack, Text, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { DataEntry, Field, Submission } from '../collection/types.ts';
import { useVersion } from '../collection/use-collection.ts';
import { GeopointAnswer } from './GeopointAnswer.tsx';
import { ReviewForm } from './ReviewForm.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { hasStructure, StructuredAnswers } from './StructuredAnswers.tsx';
import { SubmissionHistory } from './SubmissionHistory.tsx';
import { useDeleteSubmission, useSubmissionVersions } from './use-submission-edit.ts';
import { useSubmission } from './use-submissions.ts';
import { answerText, answersOf, isGeopoint, isPhoto } from './values.ts';

/** The edit form and the web form's inputs load when "Edit" is first pressed, not with the list. */
const SubmissionEditForm = lazy(() => import('./SubmissionEditForm.tsx'));

/**
 * The detail of one submission in a side drawer (full screen on a phone): every answer under
 * its field's label (photos shown, geopoints with their coordinates and a small map), the
 * submission's own location, its history (status changes with who and the comment, and edits
 * with who and each answer before → after, oldest first), and the actions the caller's role
 * allows: edit the answers (`mayEdit`), delete after a confirmation (`mayDelete`; the drawer
 * then closes and the list follows), review (`mayReview`). Labels and inputs come from the
 * submission's own form version.
 */
export function SubmissionDrawer(props: {
  projectId: number;
  submissionId: number | undefined;
  fields: Field[];
  userName: (id: number | null) => string;
  mayReview: boolean;
  mayEdit: (s: Submission) => boolean;
  mayDelete: boolean;
  onClose: () => void;
  /** After a delete: the drawer has closed; the page says so. */
  onDeleted: (id: number) => void;
}) {
  const { t, i18n } = useTranslation(['submissions', 'collection']);
  const when = useFormatInstant();
  const locale = i18n.resolvedLanguage ?? 'en';
  const submission = useSubmission(props.projectId, props.submissionId);
  const versions = useSubmissionVersions(props.projectId, props.submissionId);
  const s = submission.data;
  const ownVersion = useVersion(s?.form_version_id);
  const fields = ownVersion.data?.fields ?? props.fields;
  const answers = useMemo(() => (s ? answersOf(s) : new Map<string, unknown>()), [s]);
  /** The id of the submission being edited (so another one opened is not in edit mode). */
  const [editing, setEditing] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSubmission(props.projectId);
  const isEditing = s !== undefined && editing === s.id;
  const structured = hasStructure(fields);
  /** One answer as the drawer shows it: a photo, a geopoint with its map, "no answer", or text. */
  const valueView = (f: Field, value: unknown) =>
    isPhoto(value) ? (
      <Anchor href={value.url} target="_blank" rel="noreferrer">
        <Image src={value.url} alt={t('drawer.photoOf', { label: f.label })} maw={320} radius="sm" />
      </Anchor>
    ) : isGeopoint(value) ? (
      <GeopointAnswer value={value} label={f.label} />
    ) : value === null || value === undefined || value === '' ? (
      <Text span c="dimmed" size="sm">
        {t('drawer.noAnswer')}
      </Text>
    ) : (
      answerText(f, value, locale, t('table.photo'))
    );
  const collector = s ? (s.collector_name ?? props.userName(s.collector_id)) : '';
  const close = () => {
    setEditing(null);
    props.onClose();
  };
  return (
    <Drawer
      opened={props.submissionId !== undefined}
      onClose={close}
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
              {t('drawer.by', { who: collector, when: when(s.created_at) })}
            </Text>
          </Group>
          {!isEditing && (props.mayEdit(s) || props.mayDelete) ? (
            <Group gap="xs">
              {props.mayEdit(s) ? (
                <Button
                  variant="default"
                  leftSection={<IconPencil size={16} aria-hidden />}
                  onClick={() => setEditing(s.id)}
                  disabled={ownVersion.isPending}
                >
                  {t('edit.open')}
                </Button>
              ) : null}
              {props.mayDelete ? (
                <Button
                  variant="light"
                  color="red"
                  leftSection={<IconTrash size={16} aria-hidden />}
                  onClick={() => {
                    remove.reset();
                    setConfirming(true);
                  }}
                >
                  {t('delete.open')}
                </Button>
              ) : null}
            </Group>
          ) : null}
          {isEditing ? (
            <Suspense fallback={<PageLoader />}>
              <SubmissionEditForm submission={s} fields={fields} onDone={() => setEditing(null)} />
            </Suspense>
          ) : (
            <Stack gap="sm" component={structured ? 'div' : 'dl'} m={0}>
              {structured ? (
                <StructuredAnswers fields={fields} data={s.data as DataEntry[]} renderValue={valueView} />
              ) : null}
              {(structured ? [] : fields).map((f) => (
                <div key={f.uuid}>
                  <Text component="dt" fw={600} size="sm">
                    {f.label}
                  </Text>
                  <Text component="dd" m={0} size="sm" style={{ wordBreak: 'break-word' }}>
                    {valueView(f, answers.get(f.uuid))}
                  </Text>
                </div>
              ))}
              {s.latitude !== null && s.longitude !== null ? (
                <Stack gap={0} component={structured ? 'dl' : 'div'} m={0}>
                  <Text component="dt" fw={600} size="sm">
                    {t('drawer.location')}
                  </Text>
                  <Text component="dd" m={0} size="sm">
                    <GeopointAnswer
                      value={[s.latitude, s.longitude, s.altitude ?? undefined, s.precision ?? undefined]}
                      label={t('drawer.location')}
                    />
                  </Text>
                </Stack>
              ) : null}
            </Stack>
          )}
          <Divider />
          <Title order={3} size="h4">
            {t('drawer.history')}
          </Title>
          <ProblemAlert error={versions.error} />
          <SubmissionHistory
            history={s.history ?? []}
            versions={versions.data?.data ?? []}
            totalVersions={versions.data?.pagination.total ?? 0}
            fields={fields}
            userName={props.userName}
          />
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
      <ConfirmDialog
        opened={confirming && s !== undefined}
        title={t('delete.title', { id: s?.id })}
        message={t('delete.message')}
        confirmLabel={t('delete.confirm')}
        cancelLabel={t('delete.cancel')}
        closeLabel={t('drawer.close')}
        pending={remove.isPending}
        error={remove.error}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          s &&
          remove.mutate(s.id, {
            onSuccess: () => {
              setConfirming(false);
              close();
              props.onDeleted(s.id);
            },
          })
        }
      />
    </Drawer>
  );
}
