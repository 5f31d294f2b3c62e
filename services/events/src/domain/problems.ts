import { defineProblems, type FieldErrors } from '@fieldhouse/problem';

/** The 404 detail of an event the actor cannot see (or that does not exist): its existence is never revealed. */
export const NO_EVENT = 'No event with this id.';

/** Largest `integer` column value: user ids above it name nobody. */
const USER_ID_MAX = 2_147_483_647;

/** What a 404 `not_found` is about, and its sentence. */
const NOT_FOUND = {
  event: NO_EVENT,
  invite: 'No invite with this id in this event.',
  device: 'No scanner device with this id in this event.',
  deviceEvent: 'The event of this scanner device no longer exists.',
  staff: 'This user is not staff of the event.',
  userId: `Nothing has this user_id: ids are integers from 1 to ${USER_ID_MAX}.`,
  route: 'Not found.',
} as const;

/** Why a request is a 400 `bad_request`. */
const BAD_REQUEST = {
  noCsv: 'Send the CSV as a text/csv body or as the "file" field of a multipart/form-data upload.',
  unreadableUpload: 'The upload cannot be read: send one file, in the field "file".',
} as const;

/** The invitee as a check-in answer shows it. */
interface ScannedInvite {
  id: string;
  nom: string;
  type_invite: string;
}

/** What a `revoked` refusal is about: a check-in (with the invite), marking present, or resending. */
type RevokedParams = { during: 'checkin'; invite: ScannedInvite } | { during: 'presence' | 'resend' };

const REVOKED = {
  presence: 'This invite was revoked: it cannot be marked present.',
  resend: 'This invite was revoked: restore it before sending the invitation again.',
} as const;

/** Laravel's detail of a 422: the first message, then "(and N more errors)". */
function firstMessage(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  return `${all[0] ?? 'The given data was invalid.'}${more > 0 ? ` (and ${more} more error${more > 1 ? 's' : ''})` : ''}`;
}

/**
 * Every problem the events service answers (docs/problem-types.md, "events"): the only place
 * their codes are written. Use cases refuse by throwing `problems.x(params)`; a check-in refusal
 * is an outcome the HTTP edge renders with `problems.alreadyCheckedIn(...)` etc. (each carries
 * `result`, as pretix's answers do; docs/events.md, "Check-in"). The kind, not a status, is
 * chosen here: libs/problem maps it at the edge.
 */
const main = defineProblems({
  /** 404: the event, invite, device or staff member does not exist, or the actor may not know it does. */
  noSuch: {
    kind: 'not_found',
    code: 'not_found',
    detail: (p: { what: keyof typeof NOT_FOUND }) => NOT_FOUND[p.what],
    // Only a user id that cannot exist names its field (today's answer): undefined adds no `errors`.
    errors: (p: { what: keyof typeof NOT_FOUND }) =>
      (p.what === 'userId'
        ? { user_id: [`The user_id must be an integer from 1 to ${USER_ID_MAX}.`] }
        : undefined) as FieldErrors,
  },
  /** 403: the actor may see the event but only its owner may do this (docs/events.md, "Who sees what"). */
  ownerOnly: { kind: 'forbidden', code: 'forbidden', detail: 'Only the owner of the event can do this.' },
  /** 403: a scanner device called a route outside its `checkin` scope. */
  deviceScope: {
    kind: 'forbidden',
    code: 'device_scope',
    detail: 'A scanner device can only scan, look invites up and read the stats of its event.',
  },
  /** 403: a user called a route only scanner devices may call. */
  notADevice: { kind: 'forbidden', code: 'not_a_device', detail: 'Only a scanner device can call this.' },
  /** 401: the device of the request's credential was revoked or deleted. */
  deviceRevoked: {
    kind: 'unauthenticated',
    code: 'device_revoked',
    detail: 'This scanner device was revoked: ask the event owner for a new one.',
  },
  /** 422 naming fields (Laravel's `errors`); `detail` defaults to the first message. */
  invalid: {
    kind: 'invalid',
    code: 'validation_failed',
    detail: (p: { errors: FieldErrors; detail?: string }) => p.detail ?? firstMessage(p.errors),
    errors: (p: { errors: FieldErrors; detail?: string }) => p.errors,
  },
  /** 422: the event already has an invite with this e-mail (Laravel's `unique` rule). */
  emailTaken: {
    kind: 'invalid',
    code: 'email_taken',
    detail: 'This e-mail is already invited to the event.',
    errors: (_: void) => ({ email: ['This e-mail is already invited to the event.'] }),
  },
  /** 422: the event already has `limit` webhooks (`WEBHOOK_MAX_SUBSCRIPTIONS`, docs/webhooks.md, "Isolation"). */
  webhookLimitReached: {
    kind: 'invalid',
    code: 'webhook_limit_reached',
    detail: (p: { limit: number }) =>
      `This event already has ${p.limit} webhooks, the most one event may have: delete one before adding another.`,
    extensions: (p: { limit: number }) => ({ limit: p.limit }),
  },
  /** 400: the import request holds no CSV, or its upload cannot be read. */
  unreadable: {
    kind: 'bad_request',
    code: 'bad_request',
    detail: (p: { why: keyof typeof BAD_REQUEST }) => BAD_REQUEST[p.why],
  },
  /** 413: the CSV is over 5 MB. */
  csvTooLarge: { kind: 'too_large', code: 'payload_too_large', detail: 'The CSV file is larger than 5 MB.' },
  /** 404: no device has this setup code. */
  setupCodeUnknown: {
    kind: 'not_found',
    code: 'setup_code_unknown',
    detail: 'No scanner device has this setup code.',
  },
  /** 410: the setup code was used (it works once). */
  setupCodeUsed: {
    kind: 'gone',
    code: 'setup_code_used',
    detail: 'This setup code was already used: ask the event owner for a new device.',
  },
  /** 410: the setup code is older than 24 hours. */
  setupCodeExpired: {
    kind: 'gone',
    code: 'setup_code_expired',
    detail: 'This setup code has expired: ask the event owner for a new device.',
  },
  /** Check-in 409: present already; when and by whom the first scan was made (pretix's `already_redeemed`). */
  alreadyCheckedIn: {
    kind: 'conflict',
    code: 'already_checked_in',
    detail: (p: { invite: ScannedInvite; checked_in_at: string; scanne_par: string | null }) =>
      `${p.invite.nom} was already checked in at ${p.checked_in_at}.`,
    extensions: (p: { invite: ScannedInvite; checked_in_at: string; scanne_par: string | null }) => ({
      invite: p.invite,
      checked_in_at: p.checked_in_at,
      scanne_par: p.scanne_par,
      result: 'already_checked_in',
    }),
  },
  /** Check-in 404: no invite anywhere has this code. */
  unknownCode: {
    kind: 'not_found',
    code: 'unknown_code',
    detail: 'No invite has this code.',
    extensions: (_: void) => ({ result: 'unknown_code' }),
  },
  /** Check-in 422: the code belongs to another event (which one is not revealed). */
  wrongEvent: {
    kind: 'invalid',
    code: 'wrong_event',
    detail: 'This code belongs to another event.',
    extensions: (_: void) => ({ result: 'wrong_event' }),
  },
  /** 409: the invite was revoked: it cannot check in, be marked present, or be sent again. */
  revoked: {
    kind: 'conflict',
    code: 'revoked',
    detail: (p: RevokedParams) =>
      p.during === 'checkin' ? `The invite of ${p.invite.nom} was revoked.` : REVOKED[p.during],
    extensions: (p: RevokedParams) =>
      p.during === 'checkin' ? { invite: p.invite, result: 'revoked' } : ({} as Record<string, unknown>),
  },
});

/**
 * Redeeming the setup code of a revoked device is 410 `device_revoked` (gone for good), while a
 * revoked device's credential is 401 with the same code: one code, two kinds, so a catalogue of
 * its own (defineProblems refuses a code twice in one).
 */
const redeem = defineProblems({
  /** 410: the setup code's device was revoked. */
  setupDeviceRevoked: { kind: 'gone', code: 'device_revoked', detail: 'This scanner device was revoked.' },
});

/** The events service's problem catalogue. */
export const problems = { ...main, ...redeem };
