import { useEffect } from 'react';
import { Button, Checkbox, Code, Group, Modal, MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, useServiceErrors } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Webhook, WebhookInput } from './types.ts';

/** The service's limit on a description (libs/webhooks `webhookCreateSchema`). */
const MAX_DESCRIPTION = 500;

/** Area A's projects offered in the form (value: the project id as text). */
export interface ProjectChoice {
  value: string;
  label: string;
}

interface Values {
  url: string;
  events: string[];
  description: string;
  project_ids: string[];
}

const valuesOf = (w: Webhook | null): Values => ({
  url: w?.url ?? '',
  events: w?.events ?? [],
  description: w?.description ?? '',
  project_ids: (w?.project_ids ?? []).map(String),
});

/**
 * Creates or edits a webhook in a dialog: the URL, the kinds (each with what it means, from the
 * area's list), area A's projects (none chosen: the whole workspace) and a description. The
 * service's 422 messages show under their fields; any other refusal (the cap's
 * `webhook_limit_reached`) above the buttons, next to the action.
 */
export function WebhookFormModal(props: {
  opened: boolean;
  /** The webhook edited, or null to create one. */
  webhook: Webhook | null;
  kinds: readonly string[];
  /** Area A only: the workspace's projects. */
  projects?: ProjectChoice[];
  pending: boolean;
  error: unknown;
  onSubmit: (body: WebhookInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('webhooks');
  const form = useForm<Values>({
    initialValues: valuesOf(props.webhook),
    validate: {
      url: (v) =>
        !v.trim() ? t('form.urlRequired') : /^https?:\/\/\S+$/i.test(v.trim()) ? null : t('form.urlInvalid'),
      events: (v) => (v.length ? null : t('form.eventsRequired')),
      description: (v) =>
        v.trim().length > MAX_DESCRIPTION ? t('form.descriptionLong', { max: MAX_DESCRIPTION }) : null,
    },
  });
  const { setValues, resetDirty } = form;
  const { opened, webhook } = props;
  useEffect(() => {
    if (!opened) return;
    const v = valuesOf(webhook);
    setValues(v);
    resetDirty(v);
  }, [opened, webhook, setValues, resetDirty]);
  useServiceErrors(form, props.error);

  const submit = form.onSubmit((v) =>
    props.onSubmit({
      url: v.url.trim(),
      events: v.events,
      description: v.description.trim() || null,
      ...(props.projects ? { project_ids: v.project_ids.length ? v.project_ids.map(Number) : null } : {}),
    }),
  );
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.webhook ? t('form.editTitle') : t('form.createTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('form.url')}
            description={t('form.urlHint')}
            placeholder="https://example.com/hooks/fieldhouse"
            type="url"
            inputMode="url"
            autoComplete="off"
            withAsterisk
            data-autofocus
            {...form.getInputProps('url')}
          />
          <Checkbox.Group
            label={t('form.events')}
            description={t('form.eventsHint')}
            withAsterisk
            {...form.getInputProps('events')}
          >
            <Stack gap="xs" mt="xs">
              {props.kinds.map((kind) => (
                <Checkbox
                  key={kind}
                  value={kind}
                  label={<Code>{kind}</Code>}
                  description={t(`kinds.${kind}`)}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {props.projects ? (
            <MultiSelect
              label={t('form.projects')}
              description={t('form.projectsHint')}
              placeholder={t('form.projectsPlaceholder')}
              data={props.projects}
              searchable
              clearable
              {...form.getInputProps('project_ids')}
            />
          ) : null}
          <Textarea
            label={t('form.description')}
            description={t('form.descriptionHint')}
            autosize
            minRows={2}
            {...form.getInputProps('description')}
          />
          {/* A 422 with `errors` shows under its fields; anything else (the cap) here. */}
          {Object.keys(fieldErrorsOf(props.error)).length ? null : <ProblemAlert error={props.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={props.pending}>
              {props.webhook ? t('form.save') : t('form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
