import { EMAIL_REQUESTED, envelope, Exchanges } from '@fieldhouse/contracts';
import type { BodyReader } from '@fieldhouse/http';
import { notFound, ProblemError, validationFailed } from '@fieldhouse/problem';
import { inviteHistory as historyRows, type HistoryEntry } from '../data/attendance.ts';
import type { EventRow } from '../data/events.ts';
import { findUserByEmail } from '../data/users.ts';
import {
  deleteInvite as deleteInviteRow,
  EmailTakenError,
  findInvite,
  insertInvite,
  listInvites as listInviteRows,
  updateInvite as updateInviteRow,
  type Invite,
  type InviteFilter,
  type InviteInput,
  type InvitePatch,
} from '../data/invites.ts';
import { eventOf, ownedEventOf, scannedEventIdOf } from './access.ts';
import type { EventsContext, ScanActor } from './context.ts';
import { isUuid } from './ids.ts';
import { invitationEmail } from './invitation-email.ts';
import { DEFAULT_INVITE_TYPE, type InviteType } from './invite-types.ts';
import { qrPng, qrSvg } from './qr.ts';

export type { HistoryEntry, Invite, InviteFilter, InvitePatch };

/** An invite to create: `type_invite` defaults to {@link DEFAULT_INVITE_TYPE}. */
export interface NewInvite {
  nom: string;
  email: string;
  type_invite?: InviteType;
}

/** The invite named in a path; ids that are not UUIDs name no invite. */
export interface InviteRef {
  userId: number;
  eventId: string;
  inviteId: string;
}

/** The e-mail is used by another invite of the event: 422 `email_taken`, as Laravel's `unique` rule. */
const emailTakenProblem = () =>
  validationFailed({ email: ['This e-mail is already invited to the event.'] }, { code: 'email_taken' });

/** The language of the user with this e-mail (the users projection), or null: not a user, or never chosen. */
const languageOf = async (ctx: EventsContext, email: string) =>
  (await findUserByEmail(ctx.db, email))?.language ?? null;

/** @throws ProblemError 404 when the event has no invite with this id. */
async function inviteOf(ctx: EventsContext, eventId: string, inviteId: string): Promise<Invite> {
  const invite = isUuid(inviteId) ? await findInvite(ctx.db, eventId, inviteId) : undefined;
  if (!invite) throw notFound('No invite with this id in this event.');
  return invite;
}

/**
 * Inserts an invite into `event` and queues its invitation e-mail (with the QR code) in one
 * transaction with the outbox; the relay is kicked after the commit.
 * @throws ProblemError 422 `email_taken` when the event already has an invite with this e-mail.
 */
export async function addInvite(ctx: EventsContext, event: EventRow, input: NewInvite): Promise<Invite> {
  const row: InviteInput = { ...input, type_invite: input.type_invite ?? DEFAULT_INVITE_TYPE };
  try {
    return await ctx.inTransaction(async (trx, outbox) => {
      const created = await insertInvite(trx, event.id, row);
      const email = await invitationEmail({
        ...created,
        event,
        language: await languageOf(ctx, created.email),
      });
      await outbox.add(Exchanges.events, envelope(Exchanges.events, EMAIL_REQUESTED, email));
      return created;
    });
  } catch (err) {
    if (err instanceof EmailTakenError) throw emailTakenProblem();
    throw err;
  }
}

/**
 * Invites someone (spec 4.3): a fresh `code_unique`, and the invitation e-mail with the QR code
 * queued. Owner only.
 * @throws ProblemError 404 unless owner or staff; 403 for staff; 422 `email_taken`.
 */
export async function createInvite(
  ctx: EventsContext,
  cmd: { userId: number; eventId: string; invite: BodyReader<NewInvite> },
): Promise<Invite> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  return addInvite(ctx, event, cmd.invite());
}

/**
 * One page of the event's invites ordered by `nom`, and how many match. `search` matches part of
 * the name or e-mail (case-insensitive) or a whole code. Owner, staff, and the event's scanner
 * devices (lookup by name or code at the door).
 * @throws ProblemError 404 unless owner, staff or a device of the event.
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
  const scannedEventId = await scannedEventIdOf(ctx, cmd.eventId, cmd.actor);
  const { page, per_page, ...filter } = cmd.query();
  return listInviteRows(ctx.db, scannedEventId, filter, { page, per_page });
}

/**
 * The invite. Owner and staff.
 * @throws ProblemError 404 unless owner or staff, or when the event has no such invite.
 */
export async function getInvite(ctx: EventsContext, cmd: InviteRef): Promise<Invite> {
  const { event } = await eventOf(ctx, cmd.eventId, cmd.userId);
  return inviteOf(ctx, event.id, cmd.inviteId);
}

/**
 * Updates `nom`, `email`, `type_invite`; `revoked: true` revokes the invite (check-ins then
 * answer `revoked`), `false` restores it. Owner only.
 * @throws ProblemError 404 as getInvite; 403 for staff; 422 `email_taken`.
 */
export async function updateInvite(
  ctx: EventsContext,
  cmd: InviteRef & { patch: BodyReader<InvitePatch> },
): Promise<Invite> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  const { id } = await inviteOf(ctx, event.id, cmd.inviteId);
  const patch = cmd.patch();
  try {
    const updated = await updateInviteRow(ctx.db, event.id, id, patch);
    if (!updated) throw notFound('No invite with this id in this event.');
    return updated;
  } catch (err) {
    if (err instanceof EmailTakenError) throw emailTakenProblem();
    throw err;
  }
}

/**
 * Sends the invitation e-mail again (with the QR code), through the outbox like the first one:
 * resolves with the address it goes to. Owner only.
 * @throws ProblemError 404 as getInvite; 403 for staff; 409 `revoked` for a revoked invite.
 */
export async function resendInvitation(ctx: EventsContext, cmd: InviteRef): Promise<{ email: string }> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  const invite = await inviteOf(ctx, event.id, cmd.inviteId);
  if (invite.revoked)
    throw new ProblemError(409, 'This invite was revoked: restore it before sending the invitation again.', {
      code: 'revoked',
    });
  await ctx.inTransaction(async (_trx, outbox) => {
    const email = await invitationEmail({ ...invite, event, language: await languageOf(ctx, invite.email) });
    await outbox.add(Exchanges.events, envelope(Exchanges.events, EMAIL_REQUESTED, email));
  });
  return { email: invite.email };
}

/**
 * Deletes the invite and its history; its code becomes unknown. Owner only.
 * @throws ProblemError 404 as getInvite; 403 for staff.
 */
export async function deleteInvite(ctx: EventsContext, cmd: InviteRef): Promise<void> {
  const event = await ownedEventOf(ctx, cmd.eventId, cmd.userId);
  const { id } = await inviteOf(ctx, event.id, cmd.inviteId);
  await deleteInviteRow(ctx.db, event.id, id);
}

/**
 * Every presence change and check-in of the invite, oldest first. Owner and staff.
 * @throws ProblemError 404 as getInvite.
 */
export async function inviteHistory(ctx: EventsContext, cmd: InviteRef): Promise<HistoryEntry[]> {
  const invite = await getInvite(ctx, cmd);
  return historyRows(ctx.db, invite.id);
}

/**
 * The QR code of the invite's `code_unique`: a PNG about 300 px wide, or an SVG document.
 * Owner and staff.
 * @throws ProblemError 404 as getInvite.
 */
export async function inviteQr(
  ctx: EventsContext,
  cmd: InviteRef & { format: 'png' | 'svg' },
): Promise<Buffer | string> {
  const invite = await getInvite(ctx, cmd);
  return cmd.format === 'png' ? qrPng(invite.code_unique) : qrSvg(invite.code_unique);
}
