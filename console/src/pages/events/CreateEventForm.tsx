import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useCreateEvent } from './use-events.ts';

/**
 * Creates an event: name, start (a date-time without zone, as area C keeps it: the wall-clock
 * time of the venue), location. The service's 422 shows under its field, other refusals under
 * the form.
 */
export function CreateEventForm(props: { onCreated: () => void }) {
  const { t } = useTranslation('events');
  const create = useCreateEvent();
  const form = useForm({
    initialValues: { name: '', start_date: '', location: '' },
    validate: {
      name: (v) => (v.trim() ? null : t('errors.required')),
      start_date: (v) => (v ? null : t('errors.required')),
      location: (v) => (v.trim() ? null : t('errors.required')),
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        create.mutate(
          { name: values.name.trim(), start_date: values.start_date, location: values.location.trim() },
          {
            onSuccess: () => {
              form.reset();
              props.onCreated();
            },
            onError: (err) => form.setErrors(fieldErrorsOf(err)),
          },
        ),
      )}
    >
      <Stack gap="sm">
        <TextInput label={t('create.name')} required maxLength={255} {...form.getInputProps('name')} />
        <TextInput
          type="datetime-local"
          label={t('create.start')}
          description={t('create.startHint')}
          required
          {...form.getInputProps('start_date')}
        />
        <TextInput
          label={t('create.location')}
          required
          maxLength={500}
          {...form.getInputProps('location')}
        />
        <ProblemAlert error={create.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t('create.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
