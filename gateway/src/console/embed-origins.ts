import { signInternalToken, type InternalTokenSettings } from '../proxy/internal-token.ts';

/**
 * The origins a poll allows to frame its embed page (docs/polls.md, "Embedding"), or null when
 * they cannot be known (no such poll, the polls service away or silent): the page then keeps
 * the refusal every other page has.
 */
export type EmbedOrigins = (pollId: string) => Promise<string[] | null>;

/** A poll id as the polls service makes them (a UUID): nothing else is asked about. */
const POLL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a cached answer may be: an origin as the polls service normalises it. */
const ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * Asks the polls service for a poll (`GET <polls>/api/polls/{poll_id}`, as the gateway itself:
 * `amr: "gateway"`, no user) and reads its `settings.embed_origins`. Answers, an unknown poll's
 * too (none), are kept `cacheMs` (default 5 s) per poll, so an owner's edit applies to new embeds
 * within that time; failures are not kept. The embed page is served before the rate limits, so
 * what it may cost the polls service is bounded here: only ids shaped as poll ids (UUIDs) are
 * asked about, and at most `maxInFlight` (default 32) at once (more: the refusal stays for that
 * request). Entries that are not plain origins are dropped (the service validates them; this is
 * the header's own guard). At most 10,000 polls are kept (then the cache starts again).
 */
export function embedOriginsOf(opts: {
  pollsUrl: string;
  settings: InternalTokenSettings;
  timeoutMs: number;
  cacheMs?: number;
  maxInFlight?: number;
}): EmbedOrigins {
  const cacheMs = opts.cacheMs ?? 5_000;
  const maxInFlight = opts.maxInFlight ?? 32;
  const cache = new Map<string, { origins: string[]; until: number }>();
  let inFlight = 0;
  const keep = (pollId: string, origins: string[], now: number) => {
    if (cache.size >= 10_000) cache.clear();
    cache.set(pollId, { origins, until: now + cacheMs });
    return origins;
  };
  return async (pollId) => {
    if (!POLL_ID.test(pollId)) return null;
    const now = Date.now();
    const hit = cache.get(pollId);
    if (hit && hit.until > now) return hit.origins;
    if (inFlight >= maxInFlight) return null;
    inFlight++;
    try {
      const url = new URL(`/api/polls/${encodeURIComponent(pollId)}`, opts.pollsUrl).href;
      const jwt = signInternalToken(opts.settings, 'polls', { method: 'gateway', user: null }, undefined);
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${jwt}`, accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        return res.status === 404 ? keep(pollId, [], now) : null;
      }
      const body = (await res.json()) as { data?: { settings?: { embed_origins?: unknown } } };
      const list = body.data?.settings?.embed_origins;
      const origins = Array.isArray(list)
        ? list.filter((o): o is string => typeof o === 'string' && ORIGIN.test(o))
        : [];
      return keep(pollId, origins, now);
    } catch {
      return null;
    } finally {
      inFlight--;
    }
  };
}

/**
 * The `Content-Security-Policy` of an embed page: `policy` (helmet's, as set for every page) with
 * its `frame-ancestors` directive replaced by `'self'` and `origins` (added when it had none).
 */
export function withFrameAncestors(policy: string, origins: readonly string[]): string {
  const directive = `frame-ancestors ${["'self'", ...origins].join(' ')}`;
  const parts = policy
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const i = parts.findIndex((p) => /^frame-ancestors(\s|$)/i.test(p));
  if (i === -1) parts.push(directive);
  else parts[i] = directive;
  return parts.join(';');
}
