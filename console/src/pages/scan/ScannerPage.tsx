import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { signal } from './feedback.ts';
import { FollowUpList } from './FollowUpList.tsx';
import { ManualLookup } from './ManualLookup.tsx';
import { ScanResult, signalOf } from './ScanResult.tsx';
import classes from './Scanner.module.css';
import { useScanner } from './use-scanner.ts';
import { registerScannerWorker } from './register-worker.ts';

/** How long an answer stays on screen before the scanner shows "Ready" again (ms). */
const RESULT_MS = 6000;

/** Whether the user is working in another control (manual search), which keeps its focus. */
const focusElsewhere = () => {
  const el = document.activeElement;
  return el !== null && el !== document.body && el.getAttribute('data-scan-input') === null;
};

/**
 * `/scan/{event_id}`: the door scanner of a set-up scanner device, phone first. A code input
 * that keeps focus takes USB and Bluetooth scanners (they type the code and Enter) and typing;
 * each scan answers at a glance, green, red or amber, with a sound and a vibration. Offline (or
 * without an answer within 1.5 s) scans are queued in IndexedDB and sent when the network
 * returns; the refused ones are listed for follow-up. Counters: scans by this device, present /
 * total, waiting to sync.
 */
export function ScannerPage() {
  const { t } = useTranslation('scan');
  const eventId = useParams().eventId ?? '';
  const s = useScanner(eventId);
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');

  useEffect(registerScannerWorker, []);
  // A distinct sound and vibration for each new answer, which then shows for RESULT_MS.
  const shownId = s.shown?.id;
  const [faded, setFaded] = useState<number | undefined>();
  useEffect(() => {
    if (!s.shown) return;
    signal(signalOf(s.shown));
    const id = s.shown.id;
    const timer = window.setTimeout(() => setFaded(id), RESULT_MS);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [shownId]);

  if (s.credential.isPending) return <PageLoader />;
  if (!s.credential.data)
    return (
      <Stack component="main" className={classes.page} justify="center">
        <Title order={1}>{t('notSetUp.title')}</Title>
        <Text>{t('notSetUp.body')}</Text>
      </Stack>
    );

  const submit = () => {
    const code = value;
    setValue('');
    void s.scan(code);
    input.current?.focus();
  };
  const stats = s.stats.data;

  return (
    <main className={classes.page}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={1} size="h3">
            {s.me.data?.event.name ?? t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('device', { name: s.credential.data.device_name })}
          </Text>
        </div>
        <Badge color={s.online ? 'green' : 'orange'} variant="light" size="lg">
          {s.online ? t('online') : t('offline')}
        </Badge>
      </Group>
      <Group gap="md" wrap="wrap" aria-label={t('counters.label')} role="group">
        <Text size="sm" data-testid="count-device">
          {t('counters.device', { count: s.me.data?.scans ?? 0 })}
        </Text>
        <Text size="sm" data-testid="count-present">
          {stats
            ? t('counters.present', { present: stats.present, total: stats.total })
            : t('counters.unknown')}
        </Text>
        <Text size="sm" data-testid="count-queued">
          {t('counters.queued', { count: s.queue.length })}
        </Text>
      </Group>
      {s.revoked ? (
        <Alert color="red" variant="filled" title={t('result.deviceRevoked')}>
          {t('result.deviceRevokedHint')}
        </Alert>
      ) : null}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            ref={input}
            data-scan-input=""
            label={t('input.label')}
            description={t('input.hint')}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            onBlur={() => window.setTimeout(() => !focusElsewhere() && input.current?.focus(), 0)}
            autoFocus
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            disabled={s.revoked !== null}
            size="lg"
            style={{ flex: 1 }}
            styles={{ wrapper: { width: '100%' } }}
          />
          <Button type="submit" size="lg" disabled={s.revoked !== null}>
            {t('input.submit')}
          </Button>
        </Group>
      </form>
      <ScanResult shown={s.shown && s.shown.id !== faded ? s.shown : null} />
      {s.queue.length > 0 ? (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">{t('queue.waiting', { count: s.queue.length })}</Text>
          <Button
            size="xs"
            variant="default"
            onClick={() => void s.sync()}
            loading={s.syncing}
            disabled={!s.online}
          >
            {t('queue.syncNow')}
          </Button>
        </Group>
      ) : null}
      {s.syncError ? (
        <Text size="sm" c="red" role="alert">
          {t('queue.failed', { reason: s.syncError.message })}
        </Text>
      ) : null}
      <FollowUpList items={s.followUps} onChange={() => void s.reload()} />
      {s.api && !s.revoked ? (
        <details>
          <summary>{t('lookup.title')}</summary>
          <ManualLookup api={s.api} eventId={eventId} onCheckIn={(code) => void s.scan(code)} />
        </details>
      ) : null}
    </main>
  );
}
