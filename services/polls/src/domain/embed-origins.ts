import { problems } from './problems.ts';

/** Hosts whose plain-http origins a browser treats as secure (development and tests). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An origin as serialised by the URL standard with nothing a CSP source list could misread. */
const SAFE_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin an `embed_origins` entry names, or null when it is not one: `https://host[:port]`
 * (scheme and host only: no path but `/`, no query, fragment, user or wildcard), or
 * `http://` on a loopback host (`localhost`, `127.0.0.1`, `[::1]`), which browsers treat as
 * secure. Returned as the URL standard serialises it (lower case, default port dropped).
 */
function originOf(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry.trim());
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return null;
  return SAFE_ORIGIN.test(url.origin) ? url.origin : null;
}

/**
 * Checks and normalises a poll's `embed_origins` setting (docs/polls.md, "Embedding"): each
 * entry an origin allowed to frame `/p/{poll_id}/embed` (the gateway writes them into the page's
 * `Content-Security-Policy: frame-ancestors`). Entries come back as origins (lower case, no
 * default port, no trailing slash), duplicates dropped, in the given order.
 * @throws ProblemError `validation_failed` (422) naming `settings.embed_origins.<index>` of each
 *   entry that is not an https origin (or http on a loopback host), quoting it.
 */
export function checkEmbedOrigins(entries: readonly string[]): string[] {
  const errors: Record<string, string[]> = {};
  const out: string[] = [];
  entries.forEach((entry, i) => {
    const origin = originOf(entry);
    if (origin === null)
      errors[`settings.embed_origins.${i}`] = [
        `"${entry}" is not an origin allowed to embed the poll: give https:// and a host, with an optional port and nothing after (https://www.example.org), or http:// on localhost.`,
      ];
    else if (!out.includes(origin)) out.push(origin);
  });
  if (Object.keys(errors).length) throw problems.invalid({ errors });
  return out;
}
