import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { CopyValue } from '../../components/CopyValue.tsx';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useCreateToken } from './use-tokens.ts';

/** The gateway's rule for token names: 1 to 255 characters after trimming. */
const MAX_NAME = 255;

/**
 * Creates a personal access token with a name; the `id|secret` value is shown once, with a copy
 * button and a warning that it will not be shown again (spec 5.2). Refusals show under the form.
 */
export function CreateTokenForm() {
  const { t } = useTranslation('tokens');
  const create = useCreateToken();
  const form = useForm({
    initialValues: { name: '' },
    validate: {
      name: (v) =>
        !v.trim()
          ? t('errors.nameRequired')
          : v.trim().length > MAX_NAME
            ? t('errors.nameLong', { max: MAX_NAME })
            : null,
    },
  });
  return (
    <Stack gap="sm">
      <form
        noValidate
        onSubmit={form.onSubmit(({ name }) =>
          create.mutate(name.trim(), {
            onSuccess: () => form.reset(),
            onError: (err) => form.setErrors(fieldErrorsOf(err)),
          }),
        )}
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('create.name')}
            description={t('create.nameHint')}
            required
            style={{ flex: '1 1 16rem' }}
            {...form.getInputProps('name')}
          />
          <Button type="submit" loading={create.isPending} mt={{ base: 0, xs: 44 }}>
            {t('create.submit')}
          </Button>
        </Group>
      </form>
      <ProblemAlert error={create.error} />
      {create.data ? (
        <Alert
          color="green"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          title={t('created.title', { name: create.data.data.name })}
          role="status"
        >
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              {t('created.once')}
            </Text>
            <CopyValue
              value={create.data.token}
              copyLabel={t('created.copy')}
              copiedLabel={t('created.copied')}
              testId="new-token"
            />
            <Button
              size="xs"
              variant="subtle"
              onClick={() => create.reset()}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('created.done')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
