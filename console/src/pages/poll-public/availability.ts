import type { Poll } from './types.ts';

/** Why a poll takes votes or not, with the date that explains it. */
export type Availability =
  | { kind: 'open' }
  | { kind: 'not_yet'; startsAt: string | null }
  | { kind: 'ended'; endsAt: string }
  | { kind: 'closed'; closedAt: string | null };

/**
 * Whether a poll takes votes now (docs/polls.md: votes only between `starts_at` and `ends_at`,
 * and never once closed): the service's `status` decides, the dates only explain it.
 */
export function availabilityOf(poll: Poll): Availability {
  if (poll.status === 'open') return { kind: 'open' };
  if (poll.status === 'closed') return { kind: 'closed', closedAt: poll.closed_at };
  const { starts_at: startsAt, ends_at: endsAt } = poll.settings;
  if (endsAt && Date.parse(endsAt) <= Date.now()) return { kind: 'ended', endsAt };
  return { kind: 'not_yet', startsAt };
}
