import { ProblemError, type FieldErrors } from '@fieldhouse/problem';
import { signInternalToken, type InternalTokenSettings } from './internal-token.ts';
import { upstreamProblem } from './upstream-problem.ts';

/** The device a setup code set up, as the events service answers it. */
interface RedeemedDevice {
  id: string;
  name: string;
  event_id: string;
}

/** Exchanges a setup code for its device at the events service (once), or throws its problem. */
export type SetupCodeRedeemer = (setupCode: string, ip: string | undefined) => Promise<RedeemedDevice>;

/**
 * Calls `POST <events>/api/events/devices/redeem` as the gateway itself (internal JWT with
 * `amr: "gateway"`, which no client request can carry). The service's problems (404
 * `setup_code_unknown`, 410 `setup_code_used` / `setup_code_expired` / `device_revoked`, 422)
 * are answered as they are; an unreachable or silent service is 502/504 as for proxied requests.
 */
export function setupCodeRedeemer(opts: {
  eventsUrl: string;
  settings: InternalTokenSettings;
  timeoutMs: number;
}): SetupCodeRedeemer {
  const url = new URL('/api/events/devices/redeem', opts.eventsUrl).href;
  return async (setupCode, ip) => {
    const jwt = signInternalToken(opts.settings, 'events', { method: 'gateway', user: null }, ip);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${jwt}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ setup_code: setupCode }),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause ?? {};
      throw upstreamProblem('events', cause, (err as Error).name === 'TimeoutError');
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status === 200) return body as unknown as RedeemedDevice;
    if (res.status >= 500 || typeof body.detail !== 'string') throw upstreamProblem('events', {}, false);
    throw new ProblemError(res.status, body.detail, {
      ...(typeof body.code === 'string' ? { code: body.code } : {}),
      ...(body.errors ? { errors: body.errors as FieldErrors } : {}),
    });
  };
}
