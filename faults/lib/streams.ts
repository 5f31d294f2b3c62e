/**
 * The write streams of the steady load, each request with a unique marker: anonymous votes on
 * the fixtures' poll (marker = voter name and fingerprint, also sent as `Idempotency-Key`),
 * submissions to the fixtures' form by offline sync (marker = the `marker` field and the
 * item's `local_id`), check-ins of distinct invitees (marker = the scan's nonce). Each marker
 * is also the write's retry key (docs/reliability.md, "What is promised").
 */
import { createEvent, importInvites, submissionBody, voteBody, type Fixtures } from './fixtures.ts';
import type { Api } from './http.ts';
import { checkLoadDurable } from './durability.ts';
import { SteadyLoad, type StreamSpec } from './load.ts';
import type { ScenarioReport } from './report.ts';
import type { ScenarioContext } from './scenario.ts';
import { settings } from './settings.ts';

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

/**
 * The steady write load of a scenario lasting about `seconds` (not started): votes, submissions
 * and check-ins at `settings.rates`, the check-ins on a new event named `name` whose invitees
 * (codes for the whole run, with a margin) are imported first; markers `fx-<run>-<tag>…`.
 * `checkDurable(report)`, after `load.stop()`, is {@link checkLoadDurable} on what it wrote.
 */
export async function steadyWriteLoad(
  ctx: ScenarioContext,
  report: ScenarioReport,
  o: { name: string; tag: string; seconds: number },
): Promise<{ load: SteadyLoad; checkDurable: (report: ScenarioReport) => Promise<void> }> {
  const { fx } = ctx;
  const codesNeeded = Math.ceil(settings.rates.checkins * o.seconds * 1.3) + 20;
  const event = await createEvent(fx.api, `${o.name} ${fx.runId}`);
  const invites = await importInvites(fx.api, event.id, codesNeeded, `${o.tag}${fx.runId}`);
  report.info(`${invites.length} invitees to check in; load: ${JSON.stringify(settings.rates)} req/s`);
  const prefix = `fx-${fx.runId}-${o.tag}`;
  const load = new SteadyLoad(ctx.api, [
    voteStream(fx, ctx.anonymous, settings.rates.votes, prefix),
    submissionStream(fx, settings.rates.submissions, prefix),
    checkinStream(
      event.id,
      invites.map((i) => i.code),
      settings.rates.checkins,
      prefix,
    ),
  ]);
  const where = {
    pollId: fx.poll.id,
    projectId: fx.form.projectId,
    fieldUuid: fx.form.fieldUuid,
    eventId: event.id,
  };
  return {
    load,
    // As a client would: each write not acknowledged is sent again, once, with its retry key.
    checkDurable: (r) => checkLoadDurable(r, ctx.api, ctx.stores, load, where, settings.settleMs),
  };
}
