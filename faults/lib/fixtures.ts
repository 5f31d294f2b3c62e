/**
 * The data every scenario works on, created through the gateway's public API as a client would:
 * one user with a bearer token; area A a workspace, a project and a published form (one text
 * field, `marker`); area B a public poll (two sections) and a poll with one-time passwords
 * (its e-mails are the polls worker's work); area C an event whose invitees are created by a
 * CSV import (their codes are what the check-in load scans).
 */
import { randomBytes } from 'node:crypto';
import type { Api } from './http.ts';

export interface Fixtures {
  runId: string;
  user: { id: number; email: string; token: string };
  /** The API as the user. */
  api: Api;
  form: { workspaceId: number; projectId: number; versionId: number; fieldUuid: string };
  poll: { id: string; sections: Array<{ id: string; options: Array<{ id: string }> }> };
  otpPollId: string;
  event: { id: string };
}

/** The password of the fixtures' user (a session scenario signs in with it). */
export const FIXTURE_PASSWORD = 'fault suite password 123';

/** Registers a user and creates the area A form, the polls and the event. */
export async function createFixtures(anonymous: Api): Promise<Fixtures> {
  const runId = randomBytes(3).toString('hex');
  const email = `faults-${runId}@example.test`;
  const reg = await anonymous.expect(201, 'POST', '/api/v1/register', {
    name: 'Fault Suite',
    email,
    password: FIXTURE_PASSWORD,
  });
  const api = anonymous.as(reg.token as string);
  const form = await createForm(api, `Faults ${runId}`);
  const poll = (
    await api.expect(201, 'POST', '/api/polls', {
      title: `Fault poll ${runId}`,
      sections: [
        { title: 'A', options: [{ label: 'a1' }, { label: 'a2' }, { label: 'a3' }] },
        { title: 'B', options: [{ label: 'b1' }, { label: 'b2' }] },
      ],
    })
  ).data;
  const otpPoll = (
    await api.expect(201, 'POST', '/api/polls', {
      title: `Fault OTP poll ${runId}`,
      sections: [{ title: 'A', options: [{ label: 'yes' }, { label: 'no' }] }],
      settings: { require_verification: true },
    })
  ).data;
  const event = await createEvent(api, `Fault event ${runId}`);
  return {
    runId,
    user: { id: reg.user.id as number, email, token: reg.token as string },
    api,
    form,
    poll: { id: poll.id, sections: poll.sections },
    otpPollId: otpPoll.id,
    event,
  };
}

/** A workspace, a project and a published form version with one required text field `marker`. */
export async function createForm(api: Api, name: string): Promise<Fixtures['form']> {
  const workspaceId = (await api.expect(201, 'POST', '/api/v1/workspaces', { name })).data.id as number;
  const projectId = (await api.expect(201, 'POST', `/api/v1/workspaces/${workspaceId}/projects`, { name }))
    .data.id as number;
  const versionId = (await api.expect(201, 'POST', `/api/v1/projects/${projectId}/versions`, {})).data
    .id as number;
  const field = (
    await api.expect(201, 'POST', `/api/v1/versions/${versionId}/fields`, {
      name: 'marker',
      label: 'Marker',
      type: 'text',
      required: true,
    })
  ).data as { uuid: string };
  await api.expect(200, 'POST', `/api/v1/versions/${versionId}/publish`);
  await api.expect(200, 'POST', `/api/v1/projects/${projectId}/publish`, {});
  return { workspaceId, projectId, versionId, fieldUuid: field.uuid };
}

/** The body of a submission whose `marker` field holds `marker`. */
export const submissionBody = (form: Fixtures['form'], marker: string) => ({
  form_version_id: form.versionId,
  data: [{ field_uuid: form.fieldUuid, type: 'text', value: marker }],
});

/** The body of a vote on `poll` (options spread by `i`) by the anonymous voter `marker`. */
export const voteBody = (poll: Fixtures['poll'], marker: string, i: number) => ({
  votes: Object.fromEntries(poll.sections.map((s) => [s.id, s.options[i % s.options.length]!.id])),
  voter_fingerprint: marker,
  voter_name: marker,
  time_spent: i % 60,
});

/** Creates an event (no invitees). */
export async function createEvent(api: Api, name: string): Promise<{ id: string }> {
  const ev = await api.expect(201, 'POST', '/api/events', {
    name,
    start_date: '2030-07-14T21:00:00',
    location: 'Fault lab',
  });
  return { id: ev.id as string };
}

/** Rows per CSV import request of {@link importInvites}. */
const IMPORT_ROWS = 250;

/**
 * Invites `count` people to event `eventId` by CSV imports of up to {@link IMPORT_ROWS} rows (each
 * invite also queues its invitation e-mail); resolves with their e-mail addresses and codes.
 * 250, not 1,000: an import renders each invitation's QR code (about 12 ms each here) in one
 * transaction per row, and 1,000 rows on a machine busy after `npm test` passed the gateway's
 * 30 s upstream limit (a 504 before the replicas suite's rolling-restart even started).
 */
export async function importInvites(
  api: Api,
  eventId: string,
  count: number,
  label: string,
): Promise<Array<{ email: string; code: string }>> {
  const out: Array<{ email: string; code: string }> = [];
  for (let start = 0; start < count; start += IMPORT_ROWS) {
    const rows: string[] = ['nom,email'];
    const n = Math.min(IMPORT_ROWS, count - start);
    for (let i = start; i < start + n; i++) rows.push(`Guest ${label} ${i},${label}-${i}@example.test`);
    const res = await api.send(
      'POST',
      `/api/events/${eventId}/invites/import`,
      rows.join('\n'),
      { 'content-type': 'text/csv' },
      120_000,
    );
    if (res.status !== 200) throw new Error(`invite import: ${res.status} ${res.text.slice(0, 300)}`);
    for (const r of res.body.results as Array<{ status: string; code_unique: string; row: number }>) {
      if (r.status !== 'created') throw new Error(`invite import: row ${r.row} ${JSON.stringify(r)}`);
      out.push({ email: `${label}-${start + r.row - 2}@example.test`, code: r.code_unique });
    }
  }
  return out;
}
