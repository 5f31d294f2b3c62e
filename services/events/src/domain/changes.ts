import type { EmailRequested } from '@fieldhouse/contracts';
import { defineChanges, message, t, webhook, type Shape } from '@fieldhouse/messaging';
import { INVITE_TYPES } from './invite-types.ts';

/**
 * Every change the events service announces, declared once (issue 33; docs/webhooks.md, "Area
 * C"): the messages its workers consume and every webhook kind, each with its payload's shape.
 * The shape gives the payload's TypeScript type, its JSON Schema (the AsyncAPI document,
 * http/asyncapi-route.ts) and, for the webhooks, the SQL the generated triggers build it with
 * (migrations/webhook-triggers.ts): every key always present, null where its column is nullable.
 *
 * The SQL expressions name the rows of the triggers: `n` the new invite, `i` the invite of `l`,
 * the `attendance_log` row.
 */

const time = (sql: string, description?: string) =>
  t.time(description === undefined ? { sql } : { sql, description });

/** Invite row `r`, as it was when the change was written. */
const invite = (r: string) =>
  t.object(
    {
      id: t.uuid({ sql: `${r}.id` }),
      event_id: t.uuid({ sql: `${r}.event_id` }),
      nom: t.string({ sql: `${r}.nom`, description: "The invitee's name." }),
      email: t.string({ sql: `${r}.email`, description: "The invitee's e-mail address." }),
      type_invite: t.oneOf(INVITE_TYPES, { sql: `${r}.type_invite` }),
      code_unique: t.string({
        sql: `${r}.code_unique`,
        description: "The invitee's ticket (what the QR code holds): treat it as a secret.",
      }),
      presence: t.boolean({ sql: `${r}.presence`, description: 'Whether the invitee is present.' }),
      checked_in_at: t.nullable(t.time({ sql: `${r}.checked_in_at` }), {
        description: 'When last checked in; null if never.',
      }),
      scanne_par: t.nullable(t.string({ sql: `${r}.scanne_par` }), {
        description: 'Who last checked the invitee in or set the presence (see `scanne_par` below).',
      }),
      revoked: t.boolean({
        sql: `${r}.revoked_at IS NOT NULL`,
        description: 'Whether the invite is revoked.',
      }),
      created_at: time(`${r}.created_at`),
    },
    { description: 'The invite as it was when the change was written.' },
  );

/** The links of invite row `r`. */
const links = (r: string) =>
  t.object({
    invite: t.string({
      sql: `'/api/events/' || ${r}.event_id || '/invites/' || ${r}.id`,
      description: '`/api/events/{event_id}/invites/{invite_id}`',
    }),
    event: t.string({ sql: `'/api/events/' || ${r}.event_id`, description: '`/api/events/{event_id}`' }),
  });

/** An `attendance_log` row `l` with its invite `i`; `presence` and `previous` as the kind says. */
const attendance = <P extends boolean, Q extends boolean>(presence: Shape<P>, previous: Shape<Q>) =>
  t.object({
    invite: invite('i'),
    links: links('i'),
    presence,
    previous,
    at: time('l.scanned_at', 'The time of the scan or of the change (an offline scan keeps its own).'),
    scanne_par: t.nullable(t.string({ sql: 'l.scanne_par' }), {
      description: "Who scanned: as given, else the user's name (or e-mail), or the scanner device's name.",
    }),
    by: t.object(
      {
        user_id: t.nullable(t.integer({ sql: 'l.user_id' }), {
          description: 'The user (owner or staff) who made it.',
        }),
        scanner_device_id: t.nullable(t.uuid({ sql: 'l.scanner_device_id' }), {
          description: 'The scanner device that made it.',
        }),
      },
      { description: 'Who made the change: a user, or a scanner device (its user is then null).' },
    ),
  });

/** The list (see the top of this file). */
export const changes = defineChanges({
  source: 'events',
  webhookScope: t.object({ event_id: t.uuid() }),
  changes: {
    'email.requested': message({
      summary: 'An e-mail to send.',
      description:
        "Consumed by the service's mail worker (workers/email.ts), which sends it once per message id.",
      data: t.json<EmailRequested>({ type: 'object', description: 'libs/contracts `EmailRequested`.' }),
    }),
    'invite.created': webhook({
      summary: 'An invite was added.',
      description:
        'Sent when an invite is added to the event, through the API or a CSV import (one per invite).',
      data: t.object({ invite: invite('n'), links: links('n') }),
    }),
    'invite.checked_in': webhook({
      summary: 'A scan checked the invitee in.',
      description:
        'Sent when a scan checks an absent invitee in, whichever path made it: a signed-in user, a scanner ' +
        'device, an offline batch. A scan of an invitee already present sends nothing.',
      data: attendance(
        t.literal(true, { sql: 'l.presence', description: 'Present now.' }),
        t.literal(false, { sql: 'l.previous', description: 'Absent before.' }),
      ),
    }),
    'invite.presence_changed': webhook({
      summary: 'The presence was set by hand.',
      description:
        'Sent when the presence is set by hand (`PUT /api/events/{event_id}/invites/{invite_id}/presence`).',
      data: attendance(
        t.boolean({ sql: 'l.presence', description: 'The presence set.' }),
        t.boolean({ sql: 'l.previous', description: 'The presence before.' }),
      ),
    }),
  },
});
