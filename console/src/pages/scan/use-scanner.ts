import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/problem.ts';
import { useOnline } from '../../components/use-online.ts';
import { eventsApi, call } from '../../api/client.ts';
import { OfflineList, type OfflineDecision } from './offline-list.ts';
import { deviceApi, type ScanOutcome } from './scan-api.ts';
import { readScannedCode } from './scan-code.ts';
import { takeScanFields } from './scan-settings.ts';
import {
  credentialOf,
  followUpsOf,
  queuedScans,
  queueScan,
  settleScans,
  type DeviceCredential,
  type FollowUp,
  type QueuedScan,
} from './scan-store.ts';

/** How long a scan waits for the service before it is stored for later (issue: 1.5 s). */
const SCAN_WAIT_MS = 1500;
/** How long after an answer is shown the counters are refreshed (ms), so they never delay it. */
const AFTER_ANSWER_MS = 250;
/**
 * Scans per offline batch. The service takes 1 to 500, but all of a venue's scanners send their
 * queues at once when its network returns, and a batch must be answered within the gateway's
 * 30 s: with 120 scanners, batches of 500 ran past it (504), batches of 100 took 17 s at most
 * (`npm run bench:events -- --mode batch`, docs/scaling.md, "The network at the gate fails").
 */
const BATCH_SIZE = 100;
/** How often the queue is retried while it holds scans and the browser says it is online. */
const RETRY_MS = 5_000;
/**
 * How often the offline copy of the guest list reads the changes while online: a change reaches
 * every online scanner within this and one request (issue 36: within 5 s).
 */
const PULL_MS = 3_000;

/** The reason of a 401 `device_revoked`, else null. */
const deviceRevoked = (err: unknown) =>
  err instanceof ApiError && err.problem.code === 'device_revoked' ? err.message : null;

/** What the offline copy decided for a scan the network did not answer (docs/events.md, "Scanners that decide offline"). */
type OfflineOutcome = { kind: 'offline'; decision: Exclude<OfflineDecision, { kind: 'no_list' }> };

/** What the last scan showed: the outcome, or a code refused before any request. */
export type Shown =
  | { id: number; code: string; outcome: ScanOutcome | OfflineOutcome }
  | { id: number; code: string; outcome: { kind: 'local'; problem: string; at?: string } };

/**
 * The door scanner of one event on this device: its credential (from IndexedDB), the device
 * and event (`/devices/me`), live stats (every 5 s), scanning (online within
 * {@link SCAN_WAIT_MS}, else queued with its nonce and time), and synchronising the queue
 * through the batch endpoint (on load, when the network returns, every 5 s while it holds
 * scans, on demand). A queued scan leaves the queue only with the service's answer; the refused
 * ones become follow-ups. A revoked device (401 `device_revoked`) stops scanning.
 */
export function useScanner(eventId: string) {
  const client = useQueryClient();
  const online = useOnline();
  const credential = useQuery({
    queryKey: ['scan', eventId, 'credential'],
    queryFn: async (): Promise<DeviceCredential | null> => (await credentialOf(eventId)) ?? null,
    staleTime: Infinity,
  });
  const token = credential.data?.token;
  // Without a device credential: the signed-in owner or staff member scans with their session.
  const access = useQuery({
    queryKey: ['events', 'access'],
    queryFn: () => call(eventsApi.GET('/api/events/access')),
    enabled: credential.isSuccess && !token,
    retry: false,
    meta: { signInOn401: false },
  });
  const role = access.data?.events.find((e) => e.event_id === eventId)?.role ?? null;
  const api = useMemo(
    () => (token ? deviceApi(token, eventId) : role ? deviceApi(null, eventId) : undefined),
    [token, role, eventId],
  );
  const [revoked, setRevoked] = useState<string | null>(null);
  const active = api !== undefined && revoked === null;
  const me = useQuery({
    queryKey: ['scan', eventId, 'me'],
    queryFn: () => api!.me(),
    enabled: active,
    retry: false,
    // A device has no user session: a 401 means revoked, never "sign in".
    meta: { signInOn401: false },
  });
  const stats = useQuery({
    queryKey: ['scan', eventId, 'stats'],
    queryFn: () => api!.stats(),
    enabled: active && online,
    refetchInterval: 5000,
    retry: false,
    meta: { signInOn401: false },
  });
  // Revoked as a scan, a sync or the counters found out (401 device_revoked).
  const revokedNow = revoked ?? deviceRevoked(me.error) ?? deviceRevoked(stats.error);
  const [queue, setQueue] = useState<QueuedScan[]>([]);
  const [followUps, setFollowUps] = useState<FollowUp[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [syncError, setSyncError] = useState<ApiError | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const counter = useRef(0);
  const busy = useRef(false);

  // The offline copy of the guest list: loaded from IndexedDB, downloaded, then kept up to date.
  const [list, setList] = useState<OfflineList | null>(null);
  const [listState, setListState] = useState({ size: 0, ready: false, syncedAt: null as string | null });
  const [listError, setListError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (!api) return;
    let live = true;
    let unsubscribe = () => {};
    void OfflineList.load(eventId).then((l) => {
      if (!live) return;
      const show = () => setListState({ size: l.size, ready: l.ready, syncedAt: l.syncedAt });
      unsubscribe = l.subscribe(show);
      show();
      setList(l);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [api, eventId]);
  const pulling = useRef(false);
  const pull = useCallback(async () => {
    if (!api || !list || pulling.current || !navigator.onLine) return;
    pulling.current = true;
    try {
      await list.pull(api);
      setListError(null);
    } catch (err) {
      const why = deviceRevoked(err);
      if (why) setRevoked(why);
      else setListError(err instanceof ApiError ? err : null);
    } finally {
      pulling.current = false;
    }
  }, [api, list]);
  useEffect(() => {
    if (!list || !online || revoked) return;
    const first = window.setTimeout(() => void pull(), 0);
    const timer = window.setInterval(() => void pull(), PULL_MS);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [list, online, revoked, pull]);

  /** Codes waiting in this device's queue, and when they were scanned (read synchronously by scans). */
  const queuedCodes = useRef(new Map<string, string>());
  const reload = useCallback(async () => {
    const [q, f] = await Promise.all([queuedScans(eventId), followUpsOf(eventId)]);
    queuedCodes.current = new Map(q.map((s) => [s.code, s.scanned_at]));
    setQueue(q);
    setFollowUps(f);
  }, [eventId]);

  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: ['scan', eventId, 'stats'] });
    void client.invalidateQueries({ queryKey: ['scan', eventId, 'me'] });
  }, [client, eventId]);

  /** Sends the queue in batches; stops (keeping the rest) at the first batch that fails. */
  const sync = useCallback(async () => {
    if (!api || busy.current || !navigator.onLine) return;
    busy.current = true;
    setSyncing(true);
    try {
      for (;;) {
        const pending = (await queuedScans(eventId)).slice(0, BATCH_SIZE);
        if (pending.length === 0) break;
        const { results } = await api.batch(pending);
        const settled: string[] = [];
        const refused: FollowUp[] = [];
        for (const r of results) {
          const scan = pending[r.index];
          if (!scan) continue;
          settled.push(scan.nonce);
          if (r.result !== 'checked_in' && r.result !== 'checked_out')
            refused.push({
              ...scan,
              result: r.result,
              message: r.detail ?? r.message ?? r.result,
              nom: r.invite?.nom ?? null,
              first_checked_in_at: r.checked_in_at ?? null,
              first_scanne_par: r.scanne_par ?? null,
            });
        }
        await settleScans(settled, refused);
        if (settled.length < pending.length) break;
      }
      setSyncError(null);
    } catch (err) {
      const why = deviceRevoked(err);
      if (why) setRevoked(why);
      else setSyncError(err instanceof ApiError ? err : null);
    } finally {
      busy.current = false;
      setSyncing(false);
      await reload();
      refresh();
    }
  }, [api, eventId, reload, refresh]);

  // The queue as stored once the credential is known, and a sync whenever the network is back.
  useEffect(() => {
    if (!api) return;
    const run = async () => {
      await reload();
      if (online) await sync();
    };
    void run();
  }, [api, online, reload, sync]);
  // While scans wait, retry every 5 s.
  const waiting = queue.length > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => void sync(), RETRY_MS);
    return () => window.clearInterval(timer);
  }, [waiting, sync]);

  /** Scans one code (USB scanner, camera or typed): answers green, red or amber. */
  const scan = useCallback(
    async (raw: string, nonce: string = crypto.randomUUID()): Promise<Shown | null> => {
      if (!api || revoked) return null;
      const id = ++counter.current;
      const read = readScannedCode(raw);
      let next: Shown;
      if ('problem' in read) {
        next = { id, code: raw.slice(0, 80), outcome: { kind: 'local', problem: read.problem } };
        setShown(next);
        return next;
      }
      // The gate, direction and people of this scan (the people count applies to this one only).
      const fields = takeScanFields();
      const earlierAt = queuedCodes.current.get(read.code);
      // A code queued here is "already in" at once, unless it is an exit or a party's next people.
      if (earlierAt && !fields.direction && !(list && (await list.isParty(read.code)))) {
        next = { id, code: read.code, outcome: { kind: 'local', problem: 'queued_here', at: earlierAt } };
        setShown(next);
        return next;
      }
      const item: QueuedScan = {
        nonce,
        event_id: eventId,
        code: read.code,
        scanned_at: new Date().toISOString(),
        ...fields,
      };
      let outcome: ScanOutcome | OfflineOutcome = await api.checkIn(item, SCAN_WAIT_MS);
      if (outcome.kind === 'stored' && list) {
        // No answer from the network: the offline copy decides at the door.
        const decision = await list.decide(item.code, {
          ...(item.direction ? { direction: item.direction } : {}),
          ...(item.people ? { people: item.people } : {}),
        });
        if (decision.kind !== 'no_list') outcome = { kind: 'offline', decision };
      }
      const admitted =
        outcome.kind === 'stored' ||
        (outcome.kind === 'offline' &&
          (outcome.decision.kind === 'admit' || outcome.decision.kind === 'exit'));
      if (admitted) {
        // Kept before it is announced as kept: a stored scan is never lost. It is sent with its
        // gate, direction and people, so the service records what an online scan would have.
        queuedCodes.current.set(item.code, item.scanned_at);
        await queueScan(item);
      }
      if (outcome.kind === 'offline' && outcome.decision.kind === 'admit')
        void list?.admitted(outcome.decision.hash, item.scanned_at, outcome.decision.people);
      if (outcome.kind === 'checked_in' && !outcome.exit)
        void list?.checkedIn(outcome.invite.id, outcome.checkedInAt, null, outcome.party?.arrived);
      if (outcome.kind === 'device_revoked') setRevoked(outcome.message);
      next = { id, code: read.code, outcome };
      setShown(next);
      // The counters and the queue follow once the answer is on screen.
      window.setTimeout(() => {
        if (admitted) void reload();
        else refresh();
        if (outcome.kind === 'checked_in' && queuedCodes.current.size > 0) void sync();
      }, AFTER_ANSWER_MS);
      return next;
    },
    [api, revoked, eventId, reload, refresh, sync, list],
  );

  return {
    credential,
    access,
    role,
    list: listState,
    listError,
    me,
    stats,
    online,
    queue,
    followUps,
    syncing,
    syncError,
    revoked: revokedNow,
    shown,
    scan,
    sync,
    reload,
    api,
  };
}
