import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useCreateEvent, useUpdateEvent, type EventDetail } from './use-events.ts';

/** A zone-less date-time as a `datetime-local` input shows it (minutes precision). */
const toInput = (value: string | null | undefined) => (value ? value.slice(0, 16) : '');

/**
 * Creates an event (`event` undefined) or edits one: name, description, start and end (date-times
 * without zone, as area C keeps them: the venue's wall-clock time), location. Checked as the
 * service checks them (the end not before the start); an edit sends only the changed fields.
 * The service's 422 shows under its field, other refusals (403 for staff) under the form.
 */
export function EventForm(props: { event?: EventDetail; onDone: () => void }) {
  const { t } = useTranslation('events');
  const create = useCreateEvent();
  const update = useUpdateEvent();
  const form = useForm({
    initialValues: {
      name: props.event?.name ?? '',
      description: props.event?.description ?? '',
      start_date: toInput(props.event?.start_date),
      end_date: toInput(props.event?.end_date),
      location: props.event?.location ?? '',
    },
    validate: {
      name: (v) => (v.trim() ? null : t('errors.required')),
      start_date: (v) => (v ? null : t('errors.required')),
      end_date: (v, all) => (v && all.start_date && v < all.start_date ? t('errors.endBeforeStart') : null),
      location: (v) => (v.trim() ? null : t('errors.required')),
    },
  });
  const error = create.error ?? update.error;
  const done = { onSuccess: props.onDone, onError: (err: Error) => form.setErrors(fieldErrorsOf(err)) };
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) => {
        const body = {
          name: v.name.trim(),
          description: v.description,
          start_date: v.start_date,
          end_date: v.end_date || null,
          location: v.location.trim(),
        };
        if (!props.event) return create.mutate(body, done);
        // Only what was changed: a date kept with seconds (the input shows minutes) stays as it was.
        const changed = Object.fromEntries(
          Object.entries(body).filter(([field]) => form.isDirty(field)),
        ) as Partial<typeof body>;
        if (Object.keys(changed).length === 0) return props.onDone();
        update.mutate({ eventId: props.event.id, body: changed }, done);
      })}
    >
      <Stack gap="sm">
        <TextInput label={t('create.name')} required maxLength={255} {...form.getInputProps('name')} />
        <Textarea
          label={t('create.description')}
          autosize
          minRows={2}
          maxLength={10_000}
          {...form.getInputProps('description')}
        />
        <TextInput
          type="datetime-local"
          label={t('create.start')}
          description={t('create.startHint')}
          required
          {...form.getInputProps('start_date')}
        />
        <TextInput type="datetime-local" label={t('create.end')} {...form.getInputProps('end_date')} />
        <TextInput
          label={t('create.location')}
          required
          maxLength={500}
          {...form.getInputProps('location')}
        />
        <ProblemAlert error={Object.keys(fieldErrorsOf(error)).length ? null : error} />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending || update.isPending}>
            {props.event ? t('edit.submit') : t('create.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
