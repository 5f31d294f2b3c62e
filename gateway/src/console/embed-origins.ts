import { signInternalToken, type InternalTokenSettings } from '../proxy/internal-token.ts';

/**
 * The origins a poll allows to frame its embed page (docs/polls.md, "Embedding"), or null when
 * they cannot be known (no such poll, the polls service away or silent): the page then keeps
 * the refusal every other page has.
 */
export type EmbedOrigins = (pollId: string) => Promise<string[] | null>;

/** What a cached answer may be: an origin as the polls service normalises it. */
const ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * Asks the polls service for a poll (`GET <polls>/api/polls/{poll_id}`, as the gateway itself:
 * `amr: "gateway"`, no user) and reads its `settings.embed_origins`. Answers are kept `cacheMs`
 * (default 5 s) per poll, so an owner's edit applies to new embeds within that time; failures are
 * not kept. Entries that are not plain origins are dropped (the service validates them; this is
 * the header's own guard). At most 10,000 polls are kept (then the cache starts again).
 */
export function embedOriginsOf(opts: {
  pollsUrl: string;
  settings: InternalTokenSettings;
  timeoutMs: number;
  cacheMs?: number;
}): EmbedOrigins {
  const cacheMs = opts.cacheMs ?? 5_000;
  const cache = new Map<string, { origins: string[]; until: number }>();
  return async (pollId) => {
    const now = Date.now();
    const hit = cache.get(pollId);
    if (hit && hit.until > now) return hit.origins;
    const url = new URL(`/api/polls/${encodeURIComponent(pollId)}`, opts.pollsUrl).href;
    const jwt = signInternalToken(opts.settings, 'polls', { method: 'gateway', user: null }, undefined);
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${jwt}`, accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        return null;
      }
      const body = (await res.json()) as { data?: { settings?: { embed_origins?: unknown } } };
      const list = body.data?.settings?.embed_origins;
      const origins = Array.isArray(list)
        ? list.filter((o): o is string => typeof o === 'string' && ORIGIN.test(o))
        : [];
      if (cache.size >= 10_000) cache.clear();
      cache.set(pollId, { origins, until: now + cacheMs });
      return origins;
    } catch {
      return null;
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
