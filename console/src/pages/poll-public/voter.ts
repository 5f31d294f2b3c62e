import { randomUuid } from './uuid.ts';

/** Where this browser keeps its voter fingerprint. */
const VOTER_KEY = 'fieldhouse.voter';

let memory: string | undefined;

/**
 * This browser's `voter_fingerprint` (docs/polls.md, "Voting": required for anonymous votes,
 * reactions and comments): a random UUID kept in localStorage `fieldhouse.voter`. It is not a
 * credential — it only tells this browser's votes apart (the service hashes it with the client
 * IP). Without storage (private mode) it lives as long as the page.
 */
export function voterFingerprint(): string {
  try {
    const stored = localStorage.getItem(VOTER_KEY);
    if (stored && stored.length >= 8) return stored;
    const fresh = randomUuid();
    localStorage.setItem(VOTER_KEY, fresh);
    return fresh;
  } catch {
    return (memory ??= randomUuid());
  }
}
