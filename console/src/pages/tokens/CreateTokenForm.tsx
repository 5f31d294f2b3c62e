import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../../components/CopyValue.tsx';
import { OneFieldForm } from '../../components/OneFieldForm.tsx';
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
  return (
    <Stack gap="sm">
      <OneFieldForm
        field="name"
        label={t('create.name')}
        description={t('create.nameHint')}
        submitLabel={t('create.submit')}
        validate={(v) =>
          !v.trim()
            ? t('errors.nameRequired')
            : v.trim().length > MAX_NAME
              ? t('errors.nameLong', { max: MAX_NAME })
              : null
        }
        mutate={create.mutate}
        pending={create.isPending}
        error={create.error}
      />
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
