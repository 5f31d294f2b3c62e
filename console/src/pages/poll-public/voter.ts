import { randomUuid } from './uuid.ts';

/** Where this browser keeps its voter fingerprint. */
const VOTER_KEY = 'fieldhouse.voter';

let memory: string | undefined;

/** 64-bit FNV-1a of `text`, as 16 hex digits. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/**
 * The fingerprint of a framed page that may not use storage (a third-party frame where
 * third-party storage is blocked: the embed on a news site): a hash of what stays the same across
 * its reloads (user agent, languages, time zone, screen size and depth, cores), so that a reader
 * who reloads the host page is still the same voter there. The service hashes it with the client
 * IP, so two readers share it only with the same browser, settings and screen behind the same
 * network; and because anyone can compute it, `my-ballot` answers it without the ballot's
 * contents. Prefixed `b:`.
 */
function browserTraitsFingerprint(): string {
  const traits = [
    navigator.userAgent,
    navigator.languages.join(','),
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    // Sorted: turning a phone swaps them. No pixel ratio: zooming changes it.
    [screen.width, screen.height].sort((a, b) => a - b).join('x'),
    String(screen.colorDepth),
    String(navigator.hardwareConcurrency ?? ''),
  ].join('|');
  return `b:${fnv1a64(traits)}`;
}

/**
 * This browser's `voter_fingerprint` (docs/polls.md, "Voting": required for anonymous votes,
 * reactions and comments): a random UUID kept in localStorage `fieldhouse.voter`. It is not a
 * credential — it only tells this browser's votes apart (the service hashes it with the client
 * IP). Where a framed page may not use storage at all (an embed with third-party storage
 * blocked: reading it throws), a hash of the browser's stable traits
 * ({@link browserTraitsFingerprint}); a top-level page without storage keeps a UUID for as long
 * as it is open; where storage works but is emptied when the window closes (private mode), the
 * UUID lasts that long.
 */
export function voterFingerprint(): string {
  try {
    const stored = localStorage.getItem(VOTER_KEY);
    if (stored && stored.length >= 8) return stored;
    const fresh = randomUuid();
    localStorage.setItem(VOTER_KEY, fresh);
    return fresh;
  } catch {
    // Only a framed page falls back on the traits: a top-level page without storage (blocked on
    // purpose) keeps a fingerprint that lasts as long as the page.
    return (memory ??= window.self !== window.top ? browserTraitsFingerprint() : randomUuid());
  }
}
