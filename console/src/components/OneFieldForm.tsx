import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { fieldErrorsOf } from './field-errors.ts';
import { ProblemAlert } from './ProblemAlert.tsx';

/** The options a TanStack Query `mutate` takes, as this form passes them. */
interface MutateOptions {
  onSuccess: () => void;
  onError: (err: Error) => void;
}

/**
 * A form of one text field and its submit button side by side (wrapping on a phone): the value
 * is checked by `validate` first, then given trimmed to `mutate` (a TanStack Query mutation's);
 * the form clears itself once it succeeded. The service's 422 message for `field` shows under
 * the input with what was typed kept; any other refusal shows under the form.
 */
export function OneFieldForm(props: {
  /** The body field the service names in its 422 `errors`. */
  field: string;
  label: string;
  description?: string;
  type?: 'text' | 'email';
  maxLength?: number;
  submitLabel: string;
  validate: (value: string) => string | null;
  mutate: (value: string, options: MutateOptions) => void;
  pending: boolean;
  error: unknown;
}) {
  const form = useForm({ initialValues: { value: '' }, validate: { value: props.validate } });
  const fieldError = fieldErrorsOf(props.error)[props.field];
  return (
    <Stack gap="sm">
      <form
        noValidate
        onSubmit={form.onSubmit(({ value }) =>
          props.mutate(value.trim(), {
            onSuccess: () => form.reset(),
            onError: (err) => {
              const message = fieldErrorsOf(err)[props.field];
              if (message) form.setFieldError('value', message);
            },
          }),
        )}
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            type={props.type ?? 'text'}
            label={props.label}
            description={props.description}
            required
            maxLength={props.maxLength}
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('value')}
          />
          <Button type="submit" loading={props.pending} mt={{ base: 0, xs: props.description ? 44 : 25 }}>
            {props.submitLabel}
          </Button>
        </Group>
      </form>
      {fieldError ? null : <ProblemAlert error={props.error} />}
    </Stack>
  );
}
