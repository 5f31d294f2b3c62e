import type { BodyReader } from '@fieldhouse/http';
import { inviteHistory as historyRows, type HistoryEntry } from '../data/attendance.ts';
import type { EventRow } from '../data/events.ts';
import type { Db } from '../data/tx.ts';
import { findUserByEmail } from '../data/users.ts';
import {
  deleteInvite as deleteInviteRow,
  EmailTakenError,
  findInvite,
  insertInvite,
  insertInviteRows,
  listInvites as listInviteRows,
  takeHeldInvites,
  updateInvite as updateInviteRow,
  type Invite,
  type InviteFilter,
  type InviteInput,
  type InvitePatch,
} from '../data/invites.ts';
import { requireAccess } from './access.ts';
import { generateCode } from './codes.ts';
import type { Actor, EventsContext, ScanActor } from './context.ts';
import { isUuid } from './ids.ts';
import { invitationEmail } from './invitation-email.ts';
import { DEFAULT_INVITE_TYPE, type InviteType } from './invite-types.ts';
import { problems } from './problems.ts';
import { qrPng, qrSvg } from './qr.ts';
import { changes } from './changes.ts';

export type { HistoryEntry, Invite, InviteFilter, InvitePatch };

/**
 * An invite to create: `type_invite` defaults to {@link DEFAULT_INVITE_TYPE}, `seats` (people
 * the code admits, docs/events.md "Parties") to 1; `seat_names` at most `seats` names.
 */
export interface NewInvite {
  nom: string;
  email: string;
  type_invite?: InviteType;
  seats?: number;
  seat_names?: string[];
}

/** @throws problems.invalid (422) naming `seat_names` when there are more names than seats. */
function checkSeatNames(seats: number, names: string[] | null | undefined): void {
  if (names && names.length > seats)
    throw problems.invalid({ errors: { seat_names: [`At most ${seats} names: the code admits ${seats}.`] } });
}

/** The invite named in a path; ids that are not UUIDs name no invite. */
export interface InviteRef {
  actor: Actor;
  eventId: string;
  inviteId: string;
}

/** The language of the user with this e-mail (the users projection), or null: not a user, or never chosen. */
const languageOf = async (db: Db, email: string) => (await findUserByEmail(db, email))?.language ?? null;

/** @throws problems.noSuch (404) when the event has no invite with this id. */
async function inviteOf(db: Db, eventId: string, inviteId: string): Promise<Invite> {
  const invite = isUuid(inviteId) ? await findInvite(db, eventId, inviteId) : undefined;
  if (!invite) throw problems.noSuch({ what: 'invite' });
  return invite;
}

/**
 * Inserts an invite into `event` and queues its invitation e-mail (with the QR code) in one
 * transaction with the outbox; the relay is kicked after the commit.
 * @throws problems.emailTaken (422) when the event already has an invite with this e-mail.
 */
export async function addInvite(
  ctx: EventsContext,
  event: EventRow,
  input: NewInvite,
  opts: { holdEmail?: boolean } = {},
): Promise<Invite> {
  checkSeatNames(input.seats ?? 1, input.seat_names);
  const row: InviteInput = {
    ...input,
    type_invite: input.type_invite ?? DEFAULT_INVITE_TYPE,
    ...(opts.holdEmail ? { email_held: true } : {}),
  };
  try {
    return await ctx.inTransaction(async (trx, outbox) => {
      const created = await insertInvite(trx, event.id, row, generateCode);
      if (opts.holdEmail) return created;
      const email = await invitationEmail({
        ...created,
        event,
        language: await languageOf(trx, created.email),
      });
      await changes.append(outbox, 'email.requested', email);
      return created;
    });
  } catch (err) {
    if (err instanceof EmailTakenError) throw problems.emailTaken();
    throw err;
  }
}

/**
 * Invites someone (spec 4.3): a fresh `code_unique`, and the invitation e-mail with the QR code
 * queued. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.invalid (422) for a bad body; problems.emailTaken (422).
 */
export async function createInvite(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; invite: BodyReader<NewInvite> },
): Promise<Invite> {
  const { event } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  return addInvite(ctx, event, cmd.invite());
}

/**
 * One page of the event's invites ordered by `nom`, and how many match. `search` matches part of
 * the name or e-mail (case-insensitive) or a whole code. Owner, staff, and the event's scanner
 * devices (lookup by name or code at the door).
 * @throws problems.noSuch (404) unless owner, staff or a device of the event.
 */
export async function listInvites(
  ctx: EventsContext,
  cmd: {
    actor: ScanActor;
    eventId: string;
    /** The filters and page, read once the caller may see the event (404 before any 422). */
    query: BodyReader<InviteFilter & { page: number; per_page: number }>;
  },
): Promise<{ data: Invite[]; total: number }> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.scan',
    eventId: cmd.eventId,
  });
  const { page, per_page, ...filter } = cmd.query();
  return listInviteRows(ctx.db, eventId, filter, { page, per_page });
}

/**
 * The invite. Owner and staff.
 * @throws problems.noSuch (404) unless owner or staff, or when the event has no such invite.
 */
export async function getInvite(ctx: EventsContext, cmd: InviteRef): Promise<Invite> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.read',
    eventId: cmd.eventId,
  });
  return inviteOf(ctx.db, eventId, cmd.inviteId);
}

/**
 * Updates `nom`, `email`, `type_invite`; `revoked: true` revokes the invite (check-ins then
 * answer `revoked`), `false` restores it. Owner only.
 * @throws problems.noSuch (404) as getInvite; problems.ownerOnly (403) for staff;
 * problems.invalid (422) for a bad body; problems.emailTaken (422).
 */
export async function updateInvite(
  ctx: EventsContext,
  cmd: InviteRef & { patch: BodyReader<InvitePatch> },
): Promise<Invite> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const current = await inviteOf(ctx.db, eventId, cmd.inviteId);
  const { id } = current;
  const patch = cmd.patch();
  const seats = patch.seats ?? current.seats;
  if (seats < current.arrived)
    throw problems.invalid({
      errors: { seats: [`${current.arrived} people of this party have arrived: seats cannot be fewer.`] },
    });
  checkSeatNames(seats, patch.seat_names !== undefined ? patch.seat_names : current.seat_names);
  try {
    const updated = await ctx.inTransaction((tx) => updateInviteRow(tx, eventId, id, patch));
    if (!updated) throw problems.noSuch({ what: 'invite' });
    return updated;
  } catch (err) {
    if (err instanceof EmailTakenError) throw problems.emailTaken();
    throw err;
  }
}

/**
 * Sends the invitation e-mail again (with the QR code), through the outbox like the first one:
 * resolves with the address it goes to. Owner only.
 * @throws problems.noSuch (404) as getInvite; problems.ownerOnly (403) for staff;
 * problems.revoked (409) for a revoked invite.
 */
export async function resendInvitation(ctx: EventsContext, cmd: InviteRef): Promise<{ email: string }> {
  const { event } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const invite = await inviteOf(ctx.db, event.id, cmd.inviteId);
  if (invite.revoked) throw problems.revoked({ during: 'resend' });
  await ctx.inTransaction(async (trx, outbox) => {
    const email = await invitationEmail({ ...invite, event, language: await languageOf(trx, invite.email) });
    await changes.append(outbox, 'email.requested', email);
  });
  return { email: invite.email };
}

/**
 * Sends the invitation e-mails held back at import (docs/events.md, "CSV import"): each active
 * invite's e-mail is queued through the outbox and the invite no longer counts as held, in one
 * transaction. Resolves with how many were queued. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff.
 */
export async function sendHeldInvitations(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string },
): Promise<{ queued: number }> {
  const { event } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  return ctx.inTransaction(async (trx, outbox) => {
    const held = await takeHeldInvites(trx, event.id);
    for (const invite of held) {
      const email = await invitationEmail({
        ...invite,
        event,
        language: await languageOf(trx, invite.email),
      });
      await changes.append(outbox, 'email.requested', email);
    }
    return { queued: held.length };
  });
}

/**
 * Deletes the invite and its history; its code becomes unknown. Owner only.
 * @throws problems.noSuch (404) as getInvite; problems.ownerOnly (403) for staff.
 */
export async function deleteInvite(ctx: EventsContext, cmd: InviteRef): Promise<void> {
  const { eventId } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  const { id } = await inviteOf(ctx.db, eventId, cmd.inviteId);
  await ctx.inTransaction((tx) => deleteInviteRow(tx, eventId, id));
}

/**
 * Every presence change and check-in of the invite, oldest first. Owner and staff.
 * @throws problems.noSuch (404) as getInvite.
 */
export async function inviteHistory(ctx: EventsContext, cmd: InviteRef): Promise<HistoryEntry[]> {
  const invite = await getInvite(ctx, cmd);
  return historyRows(ctx.db, invite.id);
}

/**
 * The QR code of the invite's `code_unique`: a PNG about 300 px wide, or an SVG document.
 * Owner and staff.
 * @throws problems.noSuch (404) as getInvite.
 */
export async function inviteQr(
  ctx: EventsContext,
  cmd: InviteRef & { format: 'png' | 'svg' },
): Promise<Buffer | string> {
  const invite = await getInvite(ctx, cmd);
  return cmd.format === 'png' ? qrPng(invite.code_unique) : qrSvg(invite.code_unique);
}

/**
 * Inserts many invites in multi-row statements, each with a fresh `code_unique`, and sends no
 * e-mail (bench seeding and bulk loads); resolves with their ids and codes. No access check:
 * for tools, not the API.
 */
export function insertInvitesBulk(
  db: Db,
  eventId: string,
  inputs: Array<{ nom: string; email: string; type_invite: string }>,
): Promise<Array<{ id: string; code_unique: string }>> {
  return insertInviteRows(db, eventId, inputs, generateCode);
}
