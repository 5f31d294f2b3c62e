import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../../components/CopyValue.tsx';
import { useFormatInstant } from '../../components/format.ts';
import type { NewDevice } from './use-events.ts';

/**
 * The setup URL of a new device on this console's own origin (the service's `setup_url` names
 * its configured `PUBLIC_URL`; the path and the code are the same).
 */
function setupUrlHere(device: Pick<NewDevice, 'setup_url'>): string {
  const url = new URL(device.setup_url);
  return `${window.location.origin}${url.pathname}${url.hash}`;
}

/**
 * A new scanner device's one-time setup: the setup URL as a QR code to scan with the door phone,
 * the URL and the code to copy, and when it expires. Shown once: only a hash is kept.
 */
export function SetupCodePanel(props: { device: NewDevice; onDone: () => void }) {
  const { t } = useTranslation('events');
  const when = useFormatInstant();
  const link = setupUrlHere(props.device);
  return (
    <Alert
      mt="md"
      color="green"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('devices.setup.title', { name: props.device.name })}
      role="status"
    >
      <Stack gap="sm">
        <Text size="sm">{t('devices.setup.instructions')}</Text>
        <QRCodeSVG
          value={link}
          size={220}
          marginSize={2}
          title={t('devices.setup.qrTitle', { name: props.device.name })}
          data-testid="device-setup-qr"
          data-link={link}
          style={{ maxWidth: '100%', height: 'auto', background: '#fff', alignSelf: 'flex-start' }}
        />
        <CopyValue
          value={link}
          copyLabel={t('devices.setup.copy')}
          copiedLabel={t('devices.setup.copied')}
          testId="device-setup-url"
        />
        <Text size="sm">
          {t('devices.setup.code')} <strong data-testid="device-setup-code">{props.device.setup_code}</strong>
        </Text>
        <Text size="sm" fw={600}>
          {t('devices.setup.once', { when: when(props.device.setup_expires_at) })}
        </Text>
        <Button size="xs" variant="default" onClick={props.onDone} style={{ alignSelf: 'flex-start' }}>
          {t('devices.setup.done')}
        </Button>
      </Stack>
    </Alert>
  );
}
