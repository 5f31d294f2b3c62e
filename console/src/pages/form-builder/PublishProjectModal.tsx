import {
  Button,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useServiceErrors } from '../../components/field-errors.ts';
import { InstantInput } from '../../components/InstantInput.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Project } from '../collection/types.ts';
import {
  publicationErrors,
  publicationInputOf,
  publicationValues,
  type PublicationValues,
} from './publication-form.ts';
import type { PublicationInput } from './use-form-builder.ts';

/**
 * Publishes the project for collection with every publication setting of spec 2.1: who may
 * collect, several submissions per collector, edits, a submission limit, the collection window
 * (in the user's time zone, with UTC shown), consent and its text, e-mail notifications. It
 * starts from the current settings; the service's 422 shows under the setting it names.
 */
export function PublishProjectModal(props: {
  project: Project;
  opened: boolean;
  pending: boolean;
  error: unknown;
  onPublish: (body: PublicationInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('formBuilder');
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('publish.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('field.close') }}
    >
      <PublishForm {...props} />
    </Modal>
  );
}

function PublishForm(props: Parameters<typeof PublishProjectModal>[0]) {
  const { t } = useTranslation('formBuilder');
  const form = useForm<PublicationValues>({
    initialValues: publicationValues(props.project),
    validate: (v) => publicationErrors(v, (k) => t(k)),
  });
  useServiceErrors(form, props.error);
  return (
    <form noValidate onSubmit={form.onSubmit((v) => props.onPublish(publicationInputOf(v)))}>
      <Stack gap="sm">
        <NativeSelect
          label={t('publish.access')}
          data={(['members', 'authenticated', 'public'] as const).map((a) => ({
            value: a,
            label: t(`publish.accessOptions.${a}`),
          }))}
          {...form.getInputProps('collect_access')}
        />
        <Switch
          label={t('publish.multiple')}
          {...form.getInputProps('allow_multiple_submissions', { type: 'checkbox' })}
        />
        <Switch label={t('publish.edits')} {...form.getInputProps('allow_edits', { type: 'checkbox' })} />
        <TextInput
          type="number"
          min={1}
          label={t('publish.limit')}
          description={t('publish.limitHint')}
          {...form.getInputProps('submission_limit')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <InstantInput
            label={t('publish.starts')}
            {...form.getInputProps('collect_starts_at')}
            value={form.values.collect_starts_at}
          />
          <InstantInput
            label={t('publish.ends')}
            {...form.getInputProps('collect_expires_at')}
            value={form.values.collect_expires_at}
          />
        </SimpleGrid>
        <Switch
          label={t('publish.consent')}
          {...form.getInputProps('require_consent', { type: 'checkbox' })}
        />
        {form.values.require_consent ? (
          <Textarea
            label={t('publish.consentText')}
            required
            autosize
            minRows={3}
            {...form.getInputProps('consent_text')}
          />
        ) : null}
        <Switch
          label={t('publish.notify')}
          {...form.getInputProps('notify_on_submission', { type: 'checkbox' })}
        />
        {form.values.notify_on_submission ? (
          <TextInput
            label={t('publish.emails')}
            description={t('publish.emailsHint')}
            required
            {...form.getInputProps('notification_emails')}
          />
        ) : null}
        <ProblemAlert error={props.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('field.cancel')}
          </Button>
          <Button type="submit" loading={props.pending}>
            {props.project.is_published ? t('publish.update') : t('publish.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
