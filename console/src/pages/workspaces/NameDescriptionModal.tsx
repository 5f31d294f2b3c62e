import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useServiceErrors } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { NameAndDescription } from './use-workspaces.ts';

/** The collection service's limits (docs/collection.md): name 1 to 200, description up to 5,000 characters. */
const MAX_NAME = 200;
const MAX_DESCRIPTION = 5000;

/**
 * A dialog that creates or edits something with a name and a description (a workspace, a
 * project). `onSave` runs the request; a 422's `errors` show under their fields and any other
 * refusal above the buttons, with what was typed kept. `initial` fills the form when it opens.
 */
export function NameDescriptionModal(props: {
  opened: boolean;
  title: string;
  submitLabel: string;
  initial?: NameAndDescription;
  pending: boolean;
  error: unknown;
  onSave: (values: NameAndDescription) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('workspaces');
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title}
      centered
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      {/* The modal mounts its content when it opens, so the form starts from `initial` each time. */}
      <NameDescriptionForm {...props} />
    </Modal>
  );
}

function NameDescriptionForm(props: Parameters<typeof NameDescriptionModal>[0]) {
  const { t } = useTranslation('workspaces');
  const form = useForm<NameAndDescription>({
    initialValues: props.initial ?? { name: '', description: '' },
    validate: {
      name: (v) =>
        !v.trim()
          ? t('form.nameRequired')
          : v.trim().length > MAX_NAME
            ? t('form.nameLong', { max: MAX_NAME })
            : null,
      description: (v) =>
        v.length > MAX_DESCRIPTION ? t('form.descriptionLong', { max: MAX_DESCRIPTION }) : null,
    },
  });
  useServiceErrors(form, props.error);
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        props.onSave({ name: values.name.trim(), description: values.description.trim() }),
      )}
    >
      <Stack gap="sm">
        <TextInput label={t('form.name')} required data-autofocus {...form.getInputProps('name')} />
        <Textarea label={t('form.description')} autosize minRows={2} {...form.getInputProps('description')} />
        <ProblemAlert error={props.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={props.pending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
