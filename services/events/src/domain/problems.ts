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
  signedCodes: 'Signed codes are not set up on this service.',
  staff: 'This user is not staff of the event.',
  gate: 'No gate with this id in this event.',
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

/** The gate a scan went through, as refusals name it (null: the event's implicit entrance). */
type GateRef = { id: string; name: string } | null;

/** Extensions every gate refusal carries: the invite, the gate and the `result`. */
const gateRefusal = (result: string, p: { invite: ScannedInvite; gate: GateRef }) => ({
  invite: p.invite,
  gate: p.gate,
  result,
});

/** Where and when, in a refusal's sentence. */
const atGate = (gate: GateRef) => (gate ? ` through ${gate.name}` : '');

/** What a `revoked` refusal is about: a check-in (with the invite), marking present, or resending. */
type RevokedParams = { during: 'checkin'; invite: ScannedInvite } | { during: 'presence' | 'resend' };

/** What an `already_checked_in` refusal says: the first check-in, and at a gate the open entry. */
interface AlreadyIn {
  invite: ScannedInvite;
  checked_in_at: string;
  scanne_par: string | null;
  gate?: GateRef;
  entered_at?: string | null;
  seats?: number;
  arrived?: number;
}

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
  /**
   * Check-in 409: present already; when and by whom the first scan was made (pretix's
   * `already_redeemed`). At a gate (docs/events.md, "Gates"): the party is inside through `gate`
   * since `entered_at` (its latest entry, by `scanne_par`) and no exit was scanned.
   */
  alreadyCheckedIn: {
    kind: 'conflict',
    code: 'already_checked_in',
    detail: (p: AlreadyIn) =>
      p.gate
        ? `${p.invite.nom} is already inside: entered through ${p.gate.name} at ${p.entered_at ?? p.checked_in_at}.`
        : `${p.invite.nom} was already checked in at ${p.checked_in_at}.`,
    extensions: (p: AlreadyIn) => ({
      invite: p.invite,
      checked_in_at: p.checked_in_at,
      scanne_par: p.scanne_par,
      ...(p.gate !== undefined ? { gate: p.gate, entered_at: p.entered_at ?? null } : {}),
      ...(p.seats !== undefined ? { seats: p.seats, arrived: p.arrived } : {}),
      result: 'already_checked_in',
    }),
  },
  /** Check-in 409: the party has fewer seats left than the scan asks to let in. */
  seatsExceeded: {
    kind: 'conflict',
    code: 'seats_exceeded',
    detail: (p: { invite: ScannedInvite; gate: GateRef; remaining: number; seats: number }) =>
      `${p.invite.nom}'s code admits ${p.seats}: only ${p.remaining} more can enter${atGate(p.gate)}.`,
    extensions: (p: { invite: ScannedInvite; gate: GateRef; remaining: number; seats: number }) => ({
      ...gateRefusal('seats_exceeded', p),
      remaining: p.remaining,
      seats: p.seats,
    }),
  },
  /** Check-in 409: the invitee left through a gate that allows no re-entry. */
  noReentry: {
    kind: 'conflict',
    code: 'no_reentry',
    detail: (p: { invite: ScannedInvite; gate: GateRef; exited_at: string | null }) =>
      `${p.invite.nom} left${atGate(p.gate)}${p.exited_at ? ` at ${p.exited_at}` : ''} and this gate allows no re-entry.`,
    extensions: (p: { invite: ScannedInvite; gate: GateRef; exited_at: string | null }) => ({
      ...gateRefusal('no_reentry', p),
      exited_at: p.exited_at,
    }),
  },
  /** Check-in 409: an exit scan of someone not inside through this gate. */
  notInside: {
    kind: 'conflict',
    code: 'not_inside',
    detail: (p: { invite: ScannedInvite; gate: GateRef; inside: number }) =>
      p.inside > 0
        ? `Only ${p.inside} of ${p.invite.nom}'s party are inside${atGate(p.gate)}.`
        : `${p.invite.nom} is not inside${atGate(p.gate)}: no entry was scanned there.`,
    extensions: (p: { invite: ScannedInvite; gate: GateRef; inside: number }) => ({
      ...gateRefusal('not_inside', p),
      inside: p.inside,
    }),
  },
  /** Check-in 409: the gate does not admit this invite's type. */
  notAdmitted: {
    kind: 'conflict',
    code: 'not_admitted',
    detail: (p: { invite: ScannedInvite; gate: GateRef }) =>
      `${p.gate?.name ?? 'This gate'} does not admit ${p.invite.type_invite} invites.`,
    extensions: (p: { invite: ScannedInvite; gate: GateRef }) => gateRefusal('not_admitted', p),
  },
  /** 422: an exit scan at a gate that does not scan exits (or at the implicit entrance). */
  exitsNotScanned: {
    kind: 'invalid',
    code: 'exits_not_scanned',
    detail: (p: { gate: GateRef }) =>
      p.gate ? `${p.gate.name} does not scan exits.` : 'Exits are only scanned at a gate that scans them.',
    errors: (_: { gate: GateRef }) => ({ direction: ['This gate does not scan exits.'] }),
    extensions: (p: { gate: GateRef }) => ({ gate: p.gate, result: 'exits_not_scanned' }),
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
