import { useEffect, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { Project, VersionWithFields } from '../collection/types.ts';
import { toEntries, type Answer, type Answers } from './answers.ts';
import { FieldInput } from './FieldInput.tsx';
import { deleteDraft, getDraft, putDraft, type QueueItem } from './offline-store.ts';
import { QueuePanel } from './QueuePanel.tsx';
import { useQueue } from './use-queue.ts';
import classes from './Collect.module.css';

/**
 * The form itself: the consent step when the project asks for it, every field of the published
 * version, client-side checks matching the service's, the draft kept in IndexedDB as it is typed
 * (and restored on return), and on "send" a queued submission that is sent at once when online
 * and later otherwise. Nothing typed is dropped: a refused submission comes back with its
 * reasons and can be edited into the form again.
 */
export function CollectForm(props: {
  project: Project;
  version: VersionWithFields | null;
  /** False while the project does not collect: only the queue shows. */
  collecting: boolean;
  signedIn: boolean;
}) {
  const { t } = useTranslation(['collectPage', 'collect']);
  const { project, version } = props;
  const fields = version?.fields ?? [];
  const queue = useQueue(project.id, props.signedIn);
  const [answers, setAnswers] = useState<Answers>({});
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Why the service refused the submission being corrected, when no field says it. */
  const [refusal, setRefusal] = useState<string[]>([]);
  const [restored, setRestored] = useState<string | null>(null);
  const [queued, setQueued] = useState(false);

  useEffect(() => {
    let live = true;
    void getDraft(project.id).then((draft) => {
      if (!live || !draft) return;
      setAnswers(draft.answers);
      setConsent(draft.consent);
      setRestored(draft.updated_at);
    });
    return () => {
      live = false;
    };
  }, [project.id]);

  const saveDraft = useDebouncedCallback((next: Answers, agreed: boolean) => {
    void putDraft({
      project_id: project.id,
      answers: next,
      consent: agreed,
      updated_at: new Date().toISOString(),
    });
  }, 300);
  const change = (uuid: string, value: Answer) => {
    const next = { ...answers, [uuid]: value };
    setAnswers(next);
    setQueued(false);
    setErrors(({ [uuid]: _gone, ...rest }) => rest);
    saveDraft(next, consent);
  };
  const discard = async () => {
    saveDraft.cancel?.();
    // Gone from IndexedDB first: the notice leaves only once a reload can no longer bring it back.
    await deleteDraft(project.id);
    setAnswers({});
    setErrors({});
    setRefusal([]);
    setRestored(null);
  };
  const submit = async () => {
    const { entries, problems } = toEntries(fields, answers);
    if (Object.keys(problems).length) {
      setErrors(
        Object.fromEntries(
          Object.entries(problems).map(([uuid, p]) => [uuid, t(`collect:${p.key}`, p.values ?? {})]),
        ),
      );
      const first = fields.find((f) => problems[f.uuid]);
      document.querySelector<HTMLElement>(`[data-field="${first?.uuid}"] input`)?.focus();
      return;
    }
    const item: QueueItem = {
      local_id: crypto.randomUUID(),
      project_id: project.id,
      form_version_id: version!.id,
      answers,
      entries,
      consent: project.require_consent ? consent : null,
      client_updated_at: new Date().toISOString(),
      status: 'pending',
    };
    saveDraft.cancel?.();
    setAnswers({});
    setErrors({});
    setRefusal([]);
    setRestored(null);
    setQueued(true);
    await queue.add(item);
    await deleteDraft(project.id);
  };
  const edit = async (item: QueueItem) => {
    // Each field's reason goes under it; the others (a limit reached, a closed project) on top.
    const all = Object.entries(item.errors ?? {});
    const isField = ([key]: [string, string]) => fields.some((f) => f.uuid === key);
    setAnswers(item.answers);
    setErrors(Object.fromEntries(all.filter(isField)));
    setRefusal(
      all.length
        ? [...new Set(all.filter((e) => !isField(e)).map(([, message]) => message))]
        : item.message
          ? [item.message]
          : [],
    );
    await putDraft({
      project_id: project.id,
      answers: item.answers,
      consent,
      updated_at: new Date().toISOString(),
    });
    await queue.remove(item.local_id);
    window.scrollTo({ top: 0 });
  };

  const needsConsent = project.require_consent && !consent;
  return (
    <Stack gap="lg">
      {!props.collecting ? null : needsConsent ? (
        <Paper withBorder p="md" component="section" aria-labelledby="consent-heading">
          <Stack gap="sm">
            <Text fw={600} id="consent-heading">
              {t('consent.title')}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{project.consent_text}</Text>
            <Group gap="xs">
              <Button onClick={() => setConsent(true)}>{t('consent.agree')}</Button>
            </Group>
            <Text size="sm" c="dimmed">
              {t('consent.refuse')}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <form
          noValidate
          aria-label={t('formLabel')}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="md">
            {refusal.length ? (
              <Alert variant="light" color="orange" role="alert" title={t('refused')}>
                {refusal.map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </Alert>
            ) : null}
            {restored ? (
              <Alert variant="light" color="blue" role="status">
                <Group justify="space-between" gap="xs">
                  <span>{t('draft.restored', { when: new Date(restored).toLocaleString() })}</span>
                  <button type="button" className={classes.danger} onClick={() => void discard()}>
                    {t('draft.discard')}
                  </button>
                </Group>
              </Alert>
            ) : null}
            {fields.map((f) => (
              <FieldInput
                key={f.uuid}
                field={f}
                value={answers[f.uuid] ?? null}
                error={errors[f.uuid]}
                onChange={(v) => change(f.uuid, v)}
              />
            ))}
            {Object.keys(errors).length ? (
              <Alert color="red" variant="light" role="alert">
                {t('collect:errors.fix')}
              </Alert>
            ) : null}
            <button type="submit" className={classes.primary}>
              {t('send')}
            </button>
            {queued ? (
              <Text role="status" size="sm">
                {queue.online ? t('queuedOnline') : t('queuedOffline')}
              </Text>
            ) : null}
          </Stack>
        </form>
      )}
      <QueuePanel
        items={queue.items}
        fields={fields}
        online={queue.online}
        sending={queue.sending}
        stoppedBy={queue.stoppedBy}
        onSend={() => void queue.send()}
        onEdit={(item) => void edit(item)}
        onDelete={(item) => void queue.remove(item.local_id)}
      />
    </Stack>
  );
}
