import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Group, Image, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/problem.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Field, Submission } from '../collection/types.ts';
import { fieldOfErrorKey, type Answer, type Answers } from '../collect/answers.ts';
import { FieldInput } from '../collect/FieldInput.tsx';
import { answersFor, editedEntries } from './edit-answers.ts';
import { useEditSubmission } from './use-submission-edit.ts';
import { answersOf, isPhoto } from './values.ts';

/**
 * Edits the answers of one submission in its drawer, with the web form's own inputs and checks
 * (pages/collect: `FieldInput`, `toEntries`), over the fields of the submission's own form
 * version. Each problem shows under its field, the client's before anything is sent and the
 * service's (422 `data.N.value`) after; a refusal that names no field (403, a missing field)
 * shows above the buttons. A stored photo is shown and kept unless a new one is chosen. On
 * success the service has kept the edit as a version and `onDone` closes the form.
 */
export default function SubmissionEditForm(props: {
  submission: Submission;
  fields: Field[];
  onDone: () => void;
}) {
  const { t } = useTranslation(['submissions', 'collect']);
  const { submission, fields } = props;
  const stored = useMemo(() => answersOf(submission), [submission]);
  const [answers, setAnswers] = useState<Answers>(() => answersFor(fields, stored));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** A 422 naming something other than an answer: shown by the problem alert. */
  const [unplaced, setUnplaced] = useState(false);
  const edit = useEditSubmission(submission.project_id);

  const change = (uuid: string, value: Answer) => {
    setAnswers((prev) => ({ ...prev, [uuid]: value }));
    setTouched((prev) => new Set(prev).add(uuid));
    setErrors(({ [uuid]: _gone, ...rest }) => rest);
  };
  const focus = (uuid: string | undefined) =>
    document
      .querySelector<HTMLElement>(`[data-edit-field="${uuid}"] input, [data-edit-field="${uuid}"] textarea`)
      ?.focus();
  const save = () => {
    setUnplaced(false);
    const { entries, problems } = editedEntries(fields, answers, touched, stored);
    if (Object.keys(problems).length) {
      setErrors(
        Object.fromEntries(
          Object.entries(problems).map(([uuid, p]) => [uuid, t(`collect:${p.key}`, p.values ?? {})]),
        ),
      );
      focus(fields.find((f) => problems[f.uuid])?.uuid);
      return;
    }
    edit.mutate(
      { id: submission.id, data: entries },
      {
        onSuccess: props.onDone,
        onError: (err) => {
          if (!(err instanceof ApiError) || !err.problem.errors) return;
          // The service's sentences are English: each refused answer gets the reader's words.
          const byField: Record<string, string> = {};
          let unplaced = false;
          for (const key of Object.keys(err.problem.errors)) {
            const uuid = fieldOfErrorKey(key, entries);
            if (uuid) byField[uuid] = t('edit.refused');
            else unplaced = true;
          }
          setErrors(byField);
          setUnplaced(unplaced);
          focus(fields.find((f) => byField[f.uuid])?.uuid);
        },
      },
    );
  };
  const fieldErrors = Object.keys(errors).length > 0;
  // A 422 on answers is shown under them; any other refusal in the problem alert.
  const shownError =
    edit.error instanceof ApiError && edit.error.problem.errors && !unplaced ? null : edit.error;

  return (
    <form
      noValidate
      aria-label={t('edit.label', { id: submission.id })}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('edit.intro')}
        </Text>
        {fields.map((f) => {
          const photo = stored.get(f.uuid);
          return (
            <div key={f.uuid} data-edit-field={f.uuid}>
              {f.type === 'photo' && isPhoto(photo) && !answers[f.uuid] ? (
                <Group gap="sm" mb={4} align="center">
                  <Anchor href={photo.url} target="_blank" rel="noreferrer">
                    <Image src={photo.url} alt={t('drawer.photoOf', { label: f.label })} w={96} radius="sm" />
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {t('edit.photoKept')}
                  </Text>
                </Group>
              ) : null}
              <FieldInput
                field={f}
                value={answers[f.uuid] ?? null}
                error={errors[f.uuid]}
                onChange={(v) => change(f.uuid, v)}
              />
            </div>
          );
        })}
        {fieldErrors ? (
          <Alert color="red" variant="light" role="alert">
            {t('collect:errors.fix')}
          </Alert>
        ) : null}
        <ProblemAlert error={shownError} />
        <Group gap="sm">
          <Button type="submit" loading={edit.isPending}>
            {t('edit.save')}
          </Button>
          <Button variant="default" onClick={props.onDone} disabled={edit.isPending}>
            {t('edit.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
