import type { Tx } from '../data/tx.ts';
import type { OutboxWriter } from '@fieldhouse/messaging';
import {
  deleteOpenInvitation,
  findOpenInvitation,
  insertAcceptedInvitation,
  invitationById,
  listOpenInvitations,
  renewInvitation,
  upsertOpenInvitation,
  type InvitationRow,
} from '../data/invitations.ts';
import { findUserByEmail } from '../data/users.ts';
import { listMembers, memberJson, type WorkspaceRow } from '../data/workspaces.ts';
import { requireAccess } from './access.ts';
import { setMember } from './workspaces.ts';
import type { Actor, CollectionContext } from './context.ts';
import { invitationEmail } from './invitation-email.ts';
import { mayManageRole, type Role } from './roles.ts';
import { problems } from './problems.ts';
import { changes } from './changes.ts';

/** How long an invitation stays open: 14 days from its last sending (docs/collection.md). */
const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** `{email, role}` of `POST /workspaces/{id}/invitations`. */
export interface InvitationInput {
  email: string;
  role: Role;
}

/**
 * An invitation as the API shows it. `status`: `pending` (open, before `expires_at`), `expired`
 * (open, past it: resend to renew), `accepted` (a membership; `member` is it).
 */
export interface InvitationView {
  id: number;
  email: string;
  role: Role;
  status: 'pending' | 'expired' | 'accepted';
  invited_by: number;
  invited_by_name: string | null;
  created_at: Date;
  sent_at: Date;
  expires_at: Date | null;
  accepted_at: Date | null;
  /** The membership, only once `accepted`. */
  member?: ReturnType<typeof memberJson>;
}

function invitationJson(row: InvitationRow, member?: InvitationView['member']): InvitationView {
  const status = row.accepted_at
    ? 'accepted'
    : row.expires_at.getTime() <= Date.now()
      ? 'expired'
      : 'pending';
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status,
    invited_by: row.invited_by,
    invited_by_name: row.invited_by_name,
    created_at: row.created_at,
    sent_at: row.sent_at,
    expires_at: row.accepted_at ? null : row.expires_at,
    accepted_at: row.accepted_at,
    ...(member ? { member } : {}),
  };
}

const ownerOnly = () => problems.forbidden({ reason: 'owner_only' });

/** Queues the invitation e-mail in the outbox (the collection e-mail worker sends it). */
async function queueInvitationEmail(
  ctx: CollectionContext,
  trx: Tx,
  outbox: OutboxWriter,
  workspace: WorkspaceRow,
  invitationId: number,
) {
  const row = await invitationById(trx, invitationId);
  await changes.append(
    outbox,
    'email.requested',
    invitationEmail({
      to: row.email,
      workspaceName: workspace.name,
      workspaceId: workspace.id,
      inviterName: row.invited_by_name,
      role: row.role,
      expiresAt: row.expires_at,
      publicUrl: ctx.publicUrl,
    }),
  );
  return row;
}

/**
 * Invites someone to a workspace by e-mail (`members.manage`; only an owner gives the owner
 * role). When a user with this address is known, they become a member at once with `role`
 * (as `POST /members {email, role}` would) and the answer is an `accepted` invitation with the
 * `member`; otherwise a `pending` invitation is stored for 14 days and the invitation e-mail
 * is queued in the outbox, in one transaction. Inviting an address that has an open invitation
 * renews it (new role, inviter, expiry) and sends the e-mail again.
 * @returns the invitation and whether it was `created` (false: an open one was renewed).
 * @throws 422 `already_member` (that user is a member: change the role on the member instead),
 *   403 (the role may not manage members, or grant this role), 404 (not a member).
 */
export async function inviteMember(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; input: () => InvitationInput },
): Promise<{ invitation: InvitationView; created: boolean }> {
  const { workspace, role: actorRole } = await requireAccess(ctx, {
    actor,
    permission: 'members.manage',
    workspaceId: command.workspaceId,
  });
  const input = command.input();
  const email = input.email.trim().toLowerCase();
  if (!mayManageRole(actorRole, input.role)) throw ownerOnly();
  const invitedBy = actor.userId!;
  const user = await findUserByEmail(ctx.db, email);
  if (user) {
    const members = await listMembers(ctx.db, workspace.id);
    if (members.some((m) => m.user_id === user.id)) throw problems.alreadyMember({ listed: true });
    const id = await ctx.inTransaction(async (trx) => {
      const outcome = await setMember(trx, workspace.id, user.id, input.role);
      if (outcome !== 'created') throw problems.alreadyMember({ listed: false });
      return insertAcceptedInvitation(trx, {
        workspaceId: workspace.id,
        email,
        role: input.role,
        invitedBy,
        userId: user.id,
      });
    });
    const member = (await listMembers(ctx.db, workspace.id)).find((m) => m.user_id === user.id)!;
    return {
      invitation: invitationJson(await invitationById(ctx.db, id), memberJson(member)),
      created: true,
    };
  }
  return ctx.inTransaction(async (trx, outbox) => {
    const { id, created } = await upsertOpenInvitation(trx, {
      workspaceId: workspace.id,
      email,
      role: input.role,
      invitedBy,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
    const row = await queueInvitationEmail(ctx, trx, outbox, workspace, id);
    return { invitation: invitationJson(row), created };
  });
}

/** The workspace's open invitations (pending and expired), last sent first. @throws 404, 403. */
export async function listInvitations(
  ctx: CollectionContext,
  actor: Actor,
  workspaceId: number,
): Promise<InvitationView[]> {
  const { workspace } = await requireAccess(ctx, {
    actor,
    permission: 'members.manage',
    workspaceId: workspaceId,
  });
  return (await listOpenInvitations(ctx.db, workspace.id)).map((r) => invitationJson(r));
}

/** Loads an open invitation the actor may act on (an owner invitation needs an owner). */
async function openInvitationFor(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; invitationId: number },
) {
  const { workspace, role } = await requireAccess(ctx, {
    actor,
    permission: 'members.manage',
    workspaceId: command.workspaceId,
  });
  const row = await findOpenInvitation(ctx.db, workspace.id, command.invitationId);
  if (!row) throw problems.notFound({ resource: 'invitation' });
  if (!mayManageRole(role, row.role)) throw ownerOnly();
  return { workspace, row };
}

/**
 * Sends an open invitation's e-mail again and renews it for 14 days (expired ones too).
 * @throws 404 (no open invitation: unknown, revoked or accepted), 403, 404 workspace.
 */
export async function resendInvitation(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; invitationId: number },
): Promise<InvitationView> {
  const { workspace, row } = await openInvitationFor(ctx, actor, command);
  return ctx.inTransaction(async (trx, outbox) => {
    const renewed = await renewInvitation(trx, row.id, new Date(Date.now() + INVITATION_TTL_MS));
    if (renewed === 0) throw problems.notFound({ resource: 'invitation' });
    return invitationJson(await queueInvitationEmail(ctx, trx, outbox, workspace, row.id));
  });
}

/** Revokes (deletes) an open invitation: its link then leads nowhere. @throws 404, 403. */
export async function revokeInvitation(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; invitationId: number },
): Promise<void> {
  const { workspace, row } = await openInvitationFor(ctx, actor, command);
  if ((await deleteOpenInvitation(ctx.db, workspace.id, row.id)) === 0)
    throw problems.notFound({ resource: 'invitation' });
}
