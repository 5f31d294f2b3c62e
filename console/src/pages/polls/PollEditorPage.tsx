import { useEffect } from 'react';
import { Button, Group, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import {
  emptyPoll,
  formErrorsOf,
  fromPoll,
  LIMITS,
  pollRules,
  toBody,
  type PollFormValues,
} from './poll-form.ts';
import { InviteesPanel } from './InviteesPanel.tsx';
import { SectionsEditor } from './SectionsEditor.tsx';
import { SettingsFields } from './SettingsFields.tsx';
import { useCreatePoll, usePoll, useUpdatePoll } from './use-polls.ts';

/**
 * `/polls/new` and `/polls/{poll_id}/edit`: title, description, sections and options, and every
 * setting. Checked here with the service's rules before sending; the service's 422 goes under
 * the fields it names, with its detail next to the Save button, and what was typed stays.
 * Saved: back to `/polls` with a notice. A saved poll for invitees shows its invited voters below
 * the form (`#invitees`).
 */
export function PollEditorPage() {
  const { pollId } = useParams();
  const { t } = useTranslation('polls');
  const navigate = useNavigate();
  const existing = usePoll(pollId);
  const create = useCreatePoll();
  const update = useUpdatePoll();
  const save = pollId ? update : create;
  const form = useForm<PollFormValues>({ initialValues: emptyPoll(), validate: pollRules(t) });

  const loaded = existing.data;
  useEffect(() => {
    if (loaded) {
      form.setValues(fromPoll(loaded));
      form.resetDirty(fromPoll(loaded));
    }
    // Load once per poll: later refetches must not overwrite what the user is typing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded?.id]);

  if (pollId && existing.isPending) return <PageLoader />;
  if (pollId && existing.error) return <ProblemAlert error={existing.error} />;

  const onSubmit = (values: PollFormValues) => {
    const done = () => {
      notifications.show({
        color: 'green',
        message: t(pollId ? 'editor.saved' : 'editor.created', { title: values.title }),
        closeButtonProps: { 'aria-label': t('editor.closeNotice') },
      });
      void navigate('/polls');
    };
    const failed = (err: unknown) => {
      // The service's messages in the user's words (fieldErrorsOf), under the editor's fields.
      const translated = Object.entries(fieldErrorsOf(err)).map(([k, m]) => [k, [m]]);
      if (translated.length) form.setErrors(formErrorsOf(Object.fromEntries(translated), values));
    };
    if (pollId) update.mutate({ pollId, body: toBody(values) }, { onSuccess: done, onError: failed });
    else create.mutate(toBody(values), { onSuccess: done, onError: failed });
  };

  const invited = existing.data?.settings.voters === 'invited';
  return (
    <Stack gap="xl">
      <form noValidate onSubmit={form.onSubmit(onSubmit)}>
        <Stack gap="lg" maw={820}>
          <Title order={1}>{pollId ? t('editor.editTitle') : t('editor.newTitle')}</Title>
          <Paper withBorder p={{ base: 'sm', sm: 'lg' }}>
            <Stack gap="sm">
              <TextInput
                label={t('editor.title')}
                required
                maxLength={LIMITS.title}
                key={form.key('title')}
                {...form.getInputProps('title')}
              />
              <Textarea
                label={t('editor.description')}
                autosize
                minRows={2}
                maxLength={LIMITS.description}
                key={form.key('description')}
                {...form.getInputProps('description')}
              />
            </Stack>
          </Paper>
          <section aria-labelledby="sections-title">
            <Title order={2} size="h3" id="sections-title" mb="sm">
              {t('editor.sections')}
            </Title>
            <SectionsEditor form={form} />
          </section>
          <section aria-labelledby="settings-title">
            <Title order={2} size="h3" id="settings-title" mb="sm">
              {t('settings.title')}
            </Title>
            <Paper withBorder p={{ base: 'sm', sm: 'lg' }}>
              <SettingsFields form={form} />
            </Paper>
          </section>
          <Stack gap="sm">
            <Group>
              <Button type="submit" loading={save.isPending}>
                {pollId ? t('editor.save') : t('editor.create')}
              </Button>
              <Button component={Link} to="/polls" variant="default">
                {t('editor.cancel')}
              </Button>
            </Group>
            <ProblemAlert error={save.error} />
          </Stack>
        </Stack>
      </form>
      {/* A poll for invitees (saved so): its invited voters, below the form (docs/polls.md). */}
      {pollId && invited ? (
        <InviteesPanel pollId={pollId} anonymous={existing.data?.settings.anonymous === true} />
      ) : null}
    </Stack>
  );
}
