import createClient from 'openapi-fetch';
import { call, eventsApi } from '../../api/client.ts';
import type { components, paths as EventsPaths } from '../../api/generated/events.ts';
import type { paths as GatewayPaths } from '../../api/generated/gateway.ts';
import { ApiError } from '../../api/problem.ts';
import { problemMessage } from '../../api/problem-message.ts';
import type { QueuedScan } from './scan-store.ts';

type ScannedInvite = components['schemas']['ScannedInvite'];
export type Stats = components['schemas']['Stats'];
/** The gate a scanner device scans at (`GET /api/events/devices/me`). */
export type DeviceGate = NonNullable<components['schemas']['DeviceSelf']['gate']>;

// The door scanner never uses the browser's session: no cookie (so no CSRF either), only the
// device credential, which works for the check-in routes of its event and nothing else.
const deviceEvents = createClient<EventsPaths>({ baseUrl: '', credentials: 'omit' });
const gateway = createClient<GatewayPaths>({ baseUrl: '', credentials: 'omit' });

/**
 * Exchanges a setup code, once, for the device's credential (`POST /api/events/devices/setup`):
 * `{token, device: {id, name, event_id}}`. Throws an ApiError: 404 `setup_code_unknown`, 410
 * `setup_code_used` / `setup_code_expired` / `device_revoked`, 422 malformed.
 */
export const setUpDevice = (setupCode: string) =>
  call(gateway.POST('/api/events/devices/setup', { body: { setup_code: setupCode } }));

/** What one scan came to: checked in, refused with the service's reason, or kept for later. */
export type ScanOutcome =
  | {
      kind: 'checked_in';
      invite: ScannedInvite;
      checkedInAt: string;
      /** A party's people arrived and seats, an exit, and the gate (docs/events.md, "Gates", "Parties"). */
      party?: { arrived: number; seats: number } | null;
      exit?: boolean;
      gate?: string | null;
    }
  | {
      kind: 'refused';
      result: string;
      message: string;
      invite: ScannedInvite | null;
      checkedInAt: string | null;
      scannePar: string | null;
      /** The gate of a refusal at a gate (the open entry's gate for `already_checked_in`). */
      gate?: string | null;
    }
  | { kind: 'stored' }
  | { kind: 'device_revoked'; message: string };

/** The gate, direction and people of a scan, only those it has (so an old queued scan sends what it always sent). */
const scanFields = (s: QueuedScan) => ({
  ...(s.gate_id ? { gate_id: s.gate_id } : {}),
  ...(s.direction ? { direction: s.direction } : {}),
  ...(s.people ? { people: s.people } : {}),
});

/**
 * The calls of a scanner: a set-up scanner device with its credential (`token`), or, without one,
 * a signed-in owner or staff member of the event with their session (cookie and CSRF token).
 * Either way only the event's check-in routes are called.
 */
export function deviceApi(token: string | null, eventId: string) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const path = { event_id: eventId };
  const events = token ? deviceEvents : eventsApi;
  return {
    /** Whether these calls are a device's (else a signed-in user's session). */
    device: token !== null,
    /** `GET .../checkin/snapshot`: a page of the invitees for the offline copy. */
    snapshot: (page: string | undefined) =>
      call(
        events.GET('/api/events/{event_id}/checkin/snapshot', {
          headers,
          params: { path, query: { ...(page ? { page } : {}), limit: 5000 } },
        }),
      ),
    /** `GET .../checkin/changes`: what changed since the cursor. */
    changes: (cursor: string) =>
      call(
        events.GET('/api/events/{event_id}/checkin/changes', {
          headers,
          params: { path, query: { cursor } },
        }),
      ),
    /** `GET .../checkin/keys`: the public key and revocation list of signed codes (null when they are off). */
    keys: () =>
      call(events.GET('/api/events/{event_id}/checkin/keys', { headers, params: { path } })).catch(
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        },
      ),
    /**
     * `GET /api/events/devices/me`: the device, its scan count and its event; for a signed-in
     * user, the event (`GET /api/events/{event_id}`) and no device.
     */
    me: async (): Promise<{
      name: string | null;
      scans: number | null;
      event: { name: string };
      /** A device's gate (null: the implicit entrance, entries only); undefined for a signed-in user, who picks one. */
      gate?: DeviceGate | null;
    }> => {
      if (token) return call(deviceEvents.GET('/api/events/devices/me', { headers }));
      const event = await call(eventsApi.GET('/api/events/{event_id}', { params: { path } }));
      return { name: null, scans: null, event };
    },
    /** `GET .../stats`: `{total, present, absent, taux}` of the event. */
    stats: () => call(events.GET('/api/events/{event_id}/stats', { headers, params: { path } })),
    /** `GET .../invites?search=`: the first 10 invitees matching a name, e-mail or whole code. */
    lookup: (search: string) =>
      call(
        events.GET('/api/events/{event_id}/invites', {
          headers,
          params: { path, query: { search, per_page: 10, revoked: false } },
        }),
      ),
    /**
     * `POST .../checkin` with the scan's nonce, time, and its gate, direction and people. Answers within `waitMs`: a scan the
     * network did not carry in time (offline, slow) is `stored` for the queue; sending it again
     * later with the same nonce is safe (the service counts a nonce once).
     */
    checkIn: async (scan: QueuedScan, waitMs: number): Promise<ScanOutcome> => {
      if (!navigator.onLine) return { kind: 'stored' };
      try {
        const done = await call(
          events.POST('/api/events/{event_id}/checkin', {
            headers,
            params: { path },
            body: {
              code_unique: scan.code,
              nonce: scan.nonce,
              scanned_at: scan.scanned_at,
              ...scanFields(scan),
            },
            signal: AbortSignal.timeout(waitMs),
          }),
        );
        return {
          kind: 'checked_in',
          invite: done.invite,
          checkedInAt: done.checked_in_at ?? scan.scanned_at,
          party: done.seats && done.seats > 1 ? { arrived: done.arrived ?? 0, seats: done.seats } : null,
          exit: done.result === 'checked_out',
          gate: done.gate?.name ?? null,
        };
      } catch (err) {
        if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) return { kind: 'stored' };
        if (err.problem.code === 'device_revoked') return { kind: 'device_revoked', message: err.message };
        const p = err.problem;
        return {
          kind: 'refused',
          result: typeof p.result === 'string' ? p.result : (p.code ?? 'invalid'),
          message: problemMessage(err),
          invite: (p.invite as ScannedInvite | undefined) ?? null,
          checkedInAt:
            typeof p.entered_at === 'string'
              ? p.entered_at
              : typeof p.checked_in_at === 'string'
                ? p.checked_in_at
                : null,
          gate: (p.gate as { name?: string } | null | undefined)?.name ?? null,
          scannePar: typeof p.scanne_par === 'string' ? p.scanne_par : null,
        };
      }
    },
    /** `POST .../checkin/batch` of queued scans (at most 500), one result per scan in order. */
    batch: (scans: QueuedScan[]) =>
      call(
        events.POST('/api/events/{event_id}/checkin/batch', {
          headers,
          params: { path },
          body: {
            // The document types each item as any JSON value (each is validated on its own, so a
            // bad one fails only its result); the items sent are Scan objects.
            scans: scans.map((s) => ({
              code_unique: s.code,
              nonce: s.nonce,
              scanned_at: s.scanned_at,
              ...scanFields(s),
            })) as unknown as components['schemas']['ScanBatch']['scans'],
          },
        }),
      ),
  };
}

export type DeviceApi = ReturnType<typeof deviceApi>;
