import './scan-styles.ts';
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/problem.ts';
import { problemMessage } from '../../api/problem-message.ts';
import { setUpDevice } from './scan-api.ts';
import { saveCredential } from './scan-store.ts';
import { registerScannerWorker } from './register-worker.ts';

/** The setup code carried in the URL's fragment (`#code=...`), which no server ever sees. */
const codeInHash = () => new URLSearchParams(window.location.hash.slice(1)).get('code') ?? '';

/**
 * `/scan/setup#code=...`: a door phone opens the device's setup URL (scanned from the owner's
 * QR code), which sends its code at once, or types the code. The code is exchanged once for the
 * device credential, kept in this browser's IndexedDB, and the scanner of the device's event
 * opens. Used, expired and unknown codes say so under the field, with what to do.
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
    return problemMessage(err);
  };
  const [code, setCode] = useState(codeInHash);
  const [missing, setMissing] = useState(false);
  const setUp = useMutation({
    mutationFn: async (setupCode: string) => {
      const { token, device } = await setUpDevice(setupCode);
      await saveCredential({
        event_id: device.event_id,
        device_id: device.id,
        device_name: device.name,
        token,
        set_up_at: new Date().toISOString(),
      });
      return device;
    },
    meta: { signInOn401: false },
    // The code is spent: drop it from the address and the history.
    onSuccess: (device) => void navigate(`/scan/${device.event_id}`, { replace: true }),
  });
  useEffect(registerScannerWorker, []);
  // Opening the setup URL is the whole setup: the code in it is sent at once (one time only).
  const sent = useRef(false);
  const { mutate } = setUp;
  useEffect(() => {
    const fromUrl = codeInHash();
    if (sent.current || !fromUrl) return;
    sent.current = true;
    mutate(fromUrl);
  }, [mutate]);
  const submit = () => {
    setMissing(!code.trim());
    if (code.trim()) setUp.mutate(code.trim());
  };
  const error = missing ? t('setup.errors.required') : setUp.error ? reasonOf(setUp.error) : null;

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
