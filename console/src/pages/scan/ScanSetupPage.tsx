import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/problem.ts';
import { setUpDevice } from './scan-api.ts';
import { saveCredential } from './scan-store.ts';

/** The setup code carried in the URL's fragment (`#code=...`), which no server ever sees. */
const codeInHash = () => new URLSearchParams(window.location.hash.slice(1)).get('code') ?? '';

/**
 * `/scan/setup#code=...`: a door phone opens the device's setup URL (scanned from the owner's
 * QR code), or types the code. The code is exchanged once for the device credential, kept in
 * this browser's IndexedDB, and the scanner of the device's event opens. Used, expired and
 * unknown codes say so under the field, with what to do.
 */
export function ScanSetupPage() {
  const { t } = useTranslation('scan');
  const navigate = useNavigate();
  /** Why the setup was refused, in words that say what to do. */
  const reasonOf = (err: Error) => {
    const known = err instanceof ApiError ? err.problem.code : undefined;
    if (
      known &&
      ['setup_code_used', 'setup_code_expired', 'setup_code_unknown', 'device_revoked'].includes(known)
    )
      return t(`setup.errors.${known}`);
    if (err instanceof ApiError && err.status === 422) return t('setup.errors.malformed');
    if (err instanceof ApiError && err.status === 0) return t('setup.errors.offline');
    return err.message;
  };
  const [code, setCode] = useState(codeInHash);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!code.trim()) {
      setError(t('setup.errors.required'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const { token, device } = await setUpDevice(code.trim());
      await saveCredential({
        event_id: device.event_id,
        device_id: device.id,
        device_name: device.name,
        token,
        set_up_at: new Date().toISOString(),
      });
      // The code is spent: drop it from the address and history.
      void navigate(`/scan/${device.event_id}`, { replace: true });
    } catch (err) {
      const known = err instanceof ApiError ? err.problem.code : undefined;
      setError(
        known &&
          ['setup_code_used', 'setup_code_expired', 'setup_code_unknown', 'device_revoked'].includes(known)
          ? t(`setup.errors.${known}`)
          : err instanceof ApiError && err.status === 422
            ? t('setup.errors.malformed')
            : err instanceof ApiError && err.status === 0
              ? t('setup.errors.offline')
              : (err as Error).message,
      );
    } finally {
      setPending(false);
    }
  };

  return (
    <Stack component="main" gap="md" p="md" maw={480} mx="auto" mih="100vh" justify="center">
      <Title order={1}>{t('setup.title')}</Title>
      <Text>{t('setup.intro')}</Text>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('setup.code')}
            description={t('setup.codeHint')}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={error}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            size="lg"
          />
          <Button type="submit" size="lg" loading={setUp.isPending}>
            {t('setup.submit')}
          </Button>
        </Stack>
      </form>
      <Alert variant="light" color="gray">
        {t('setup.privacy')}
      </Alert>
    </Stack>
  );
}
