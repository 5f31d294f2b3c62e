import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../../components/CopyValue.tsx';
import { useFormatInstant } from '../../components/format.ts';
import type { WebhookWithSecret } from './types.ts';

/**
 * A signing secret just made (creation or rotation), shown this once with a copy button and the
 * warning that it will not be shown again, as the API tokens page does; after a rotation, until
 * when the previous secret keeps signing. "I have copied it" takes it off the page.
 */
export function SecretNotice(props: { made: WebhookWithSecret; rotated: boolean; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  const when = useFormatInstant();
  const { made } = props;
  return (
    <Alert
      color="green"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={props.rotated ? t('secret.rotatedTitle') : t('secret.createdTitle')}
      role="status"
    >
      <Stack gap="xs">
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {made.url}
        </Text>
        <Text size="sm" fw={600}>
          {t('secret.once')}
        </Text>
        <CopyValue
          value={made.secret}
          copyLabel={t('secret.copy')}
          copiedLabel={t('secret.copied')}
          testId="webhook-secret"
        />
        <Text size="sm">{t('secret.how')}</Text>
        {props.rotated && made.previous_secret_expires_at ? (
          <Text size="sm">{t('secret.overlap', { when: when(made.previous_secret_expires_at) })}</Text>
        ) : null}
        <Button size="xs" variant="subtle" onClick={props.onDone} style={{ alignSelf: 'flex-start' }}>
          {t('secret.done')}
        </Button>
      </Stack>
    </Alert>
  );
}
