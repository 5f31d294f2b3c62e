/**
 * The write streams of the steady load, each request with a unique marker: anonymous votes on
 * the fixtures' poll (marker = voter name and fingerprint, also sent as `Idempotency-Key`),
 * submissions to the fixtures' form by offline sync (marker = the `marker` field and the
 * item's `local_id`), check-ins of distinct invitees (marker = the scan's nonce). Each marker
 * is also the write's retry key (docs/reliability.md, "What is promised").
 */
import { submissionBody, voteBody, type Fixtures } from './fixtures.ts';
import type { Api } from './http.ts';
import type { StreamSpec } from './load.ts';

/** Anonymous votes (sent with `anonymous`) at `rate`/s; markers `<prefix>-v<i>`. */
export const voteStream = (fx: Fixtures, anonymous: Api, rate: number, prefix: string): StreamSpec => ({
  name: 'votes',
  api: anonymous,
  rate,
  ackStatus: 201,
  make: (i) => {
    const marker = `${prefix}-v${i}`;
    return {
      marker,
      method: 'POST',
      path: `/api/polls/${fx.poll.id}/vote`,
      body: voteBody(fx.poll, marker, i),
      headers: { 'idempotency-key': marker },
    };
  },
});

/**
 * Submissions at `rate`/s, each a one-item offline sync (`POST /api/v1/sync`) whose `local_id`
 * is its marker `<prefix>-s<i>` (the retry key of submissions): acknowledged when the item is
 * `created` (or `unchanged`, a replay).
 */
export const submissionStream = (fx: Fixtures, rate: number, prefix: string): StreamSpec => ({
  name: 'submissions',
  rate,
  ackStatus: 200,
  ackBody: (body) => ['created', 'unchanged'].includes(body?.data?.results?.[0]?.status),
  make: (i) => {
    const marker = `${prefix}-s${i}`;
    return {
      marker,
      method: 'POST',
      path: '/api/v1/sync',
      body: {
        device_id: `faults-${fx.runId}`,
        submissions: [
          {
            ...submissionBody(fx.form, marker),
            local_id: marker,
            client_updated_at: new Date().toISOString(),
          },
        ],
      },
    };
  },
});

/** Check-ins at `rate`/s, one per code of `codes` (the stream ends when they are used up). */
export const checkinStream = (
  eventId: string,
  codes: string[],
  rate: number,
  prefix: string,
): StreamSpec => ({
  name: 'checkins',
  rate,
  ackStatus: 200,
  make: (i) => {
    const code = codes[i];
    if (code === undefined) return undefined;
    const marker = `${prefix}-c${i}`;
    return {
      marker,
      method: 'POST',
      path: `/api/events/${eventId}/checkin`,
      body: { code_unique: code, nonce: marker },
    };
  },
});

/** Results reads at `rate`/s (marker: the read's number; nothing to make durable). */
export const resultsReadStream = (pollId: string, rate: number): StreamSpec => ({
  name: 'reads',
  rate,
  ackStatus: 200,
  make: (i) => ({ marker: `r${i}`, method: 'GET', path: `/api/polls/${pollId}/results` }),
});
