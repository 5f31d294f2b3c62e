import './scan-styles.ts';
import { useCallback, useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { problemMessage } from '../../api/problem-message.ts';
import { signal } from './feedback.ts';
import { CameraReader } from './CameraReader.tsx';
import { FollowUpList } from './FollowUpList.tsx';
import { ManualLookup } from './ManualLookup.tsx';
import { ScanForm } from './ScanForm.tsx';
import { ScannerHeader } from './ScannerHeader.tsx';
import { ListStatus } from './ListStatus.tsx';
import { ScanResult, signalOf } from './ScanResult.tsx';
import classes from './Scanner.module.css';
import { useScanner } from './use-scanner.ts';
import { registerScannerWorker } from './register-worker.ts';
import { GateControls } from './GateControls.tsx';

/** How long an answer stays on screen before the scanner shows "Ready" again (ms). */
const RESULT_MS = 6000;

/**
 * `/scan/{event_id}`: the door scanner of a set-up scanner device, or of a signed-in owner or
 * staff member of the event (their session, on the event's check-in routes only), phone first. A code input
 * that keeps focus takes USB and Bluetooth scanners (they type the code and Enter) and typing;
 * each scan answers at a glance, green, red or amber, with a sound and a vibration. Offline (or
 * without an answer within 1.5 s) scans are decided from the guest list downloaded to this
 * browser (green with the name, red unknown or revoked, amber already in), queued in IndexedDB
 * and sent when the network returns; the refused ones are listed for follow-up. Counters: scans by this device, present /
 * total, waiting to sync.
 */
export function ScannerPage() {
  const { t } = useTranslation('scan');
  const eventId = useParams().eventId ?? '';
  const s = useScanner(eventId);
  const { scan } = s;
  const onScan = useCallback((code: string) => void scan(code), [scan]);

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

  if (s.credential.isPending || (!s.credential.data && s.access.isPending)) return <PageLoader />;
  if (!s.credential.data && !s.role)
    return (
      <Stack component="main" className={classes.page} justify="center">
        <Title order={1}>{t('notSetUp.title')}</Title>
        <Text>{t('notSetUp.body')}</Text>
        <Text>
          {t('notSetUp.signIn')}{' '}
          <Anchor component={Link} to={`/sign-in?next=${encodeURIComponent(`/scan/${eventId}`)}`}>
            {t('notSetUp.signInLink')}
          </Anchor>
        </Text>
      </Stack>
    );

  return (
    <main className={classes.page}>
      <ScannerHeader
        eventName={s.me.data?.event.name}
        deviceName={s.credential.data?.device_name ?? null}
        gateName={s.me.data?.gate?.name}
        online={s.online}
        deviceScans={s.credential.data ? (s.me.data?.scans ?? 0) : null}
        stats={s.stats.data}
        queued={s.queue.length}
      />
      {s.revoked ? (
        <Alert color="red" variant="filled" title={t('result.deviceRevoked')}>
          {t('result.deviceRevokedHint')}
        </Alert>
      ) : null}
      <GateControls eventId={eventId} signedIn={!s.credential.data} deviceGate={s.me.data?.gate} />
      <ScanForm onScan={onScan} disabled={s.revoked !== null} />
      <CameraReader onScan={onScan} disabled={s.revoked !== null} />
      <ScanResult shown={s.shown && s.shown.id !== faded ? s.shown : null} />
      <ListStatus list={s.list} error={s.listError} />
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
        <Text size="sm" c="red.9" role="alert">
          {t('queue.failed', { reason: problemMessage(s.syncError) })}
        </Text>
      ) : null}
      <FollowUpList items={s.followUps} onChange={() => void s.reload()} />
      {s.api && !s.revoked ? (
        <details>
          <summary>{t('lookup.title')}</summary>
          <ManualLookup api={s.api} eventId={eventId} onCheckIn={onScan} />
        </details>
      ) : null}
    </main>
  );
}
