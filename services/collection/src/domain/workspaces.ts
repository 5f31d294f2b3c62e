import type { BodyReader, PageRequest } from '@fieldhouse/http';
import {
  createWorkspace as insertWorkspace,
  deleteMember,
  deleteWorkspace as removeWorkspace,
  insertMember,
  listMembers,
  listWorkspaces as selectWorkspaces,
  lockMembers,
  memberJson,
  updateMemberRole,
  updateWorkspace as saveWorkspace,
  workspaceJson,
} from '../data/workspaces.ts';
import { findUserByEmail, findUserById } from '../data/users.ts';
import type { Tx } from '../data/tx.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { mayManageRole, type Role } from './roles.ts';
import { problems } from './problems.ts';

/** A workspace as the API shows it: with the actor's `role` and, when loaded, its `members`. */
export type WorkspaceView = ReturnType<typeof workspaceJson>;
/** A member as the API shows it (`joined_at`: when they joined). */
export type MemberView = ReturnType<typeof memberJson>;

/** `{name, description?}` of a new workspace (`description` empty or null: none). */
export interface WorkspaceInput {
  name: string;
  description?: string | null;
}

/** One page of the actor's workspaces (newest first), each with the actor's role, and the total. */
export async function listWorkspaces(
  ctx: CollectionContext,
  actor: Actor,
  page: BodyReader<PageRequest>,
): Promise<{ items: WorkspaceView[]; total: number }> {
  const { rows, total } = await selectWorkspaces(ctx.db, userIdOf(actor), page().page, page().per_page);
  return { items: rows.map((w) => workspaceJson(w, w.role)), total };
}

/** Creates a workspace whose owner is the actor; returns it with its members. @throws 401 anonymous. */
export async function createWorkspace(
  ctx: CollectionContext,
  actor: Actor,
  input: BodyReader<WorkspaceInput>,
): Promise<WorkspaceView> {
  const userId = userIdOf(actor);
  const w = await ctx.inTransaction((tx) => insertWorkspace(tx, input(), userId));
  return workspaceJson(w, 'owner', await listMembers(ctx.db, w.id));
}

/** The workspace with the actor's role and its members. @throws 404 to non-members. */
export async function getWorkspace(ctx: CollectionContext, actor: Actor, workspaceId: number) {
  const { workspace, role } = await requireAccess(ctx, {
    actor,
    permission: 'workspace.view',
    workspaceId: workspaceId,
  });
  return workspaceJson(workspace, role, await listMembers(ctx.db, workspace.id));
}

/** Renames or redescribes a workspace (owner, admin). @throws 404 non-member, 403 other roles. */
export async function updateWorkspace(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; patch: BodyReader<Partial<WorkspaceInput>> },
): Promise<WorkspaceView> {
  const { workspace, role } = await requireAccess(ctx, {
    actor,
    permission: 'workspace.update',
    workspaceId: command.workspaceId,
  });
  const w = await saveWorkspace(ctx.db, workspace.id, command.patch());
  return workspaceJson(w, role, await listMembers(ctx.db, w.id));
}

/** Deletes a workspace with its projects and submissions (owner only). @throws 404, 403. */
export async function deleteWorkspace(ctx: CollectionContext, actor: Actor, workspaceId: number) {
  const { workspace } = await requireAccess(ctx, {
    actor,
    permission: 'workspace.delete',
    workspaceId: workspaceId,
  });
  await removeWorkspace(ctx.db, workspace.id);
}

/** One page of a workspace's members (by join date) and their number. @throws 404 to non-members. */
export async function listWorkspaceMembers(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; page: BodyReader<PageRequest> },
): Promise<{ items: MemberView[]; total: number }> {
  const { workspace } = await requireAccess(ctx, {
    actor,
    permission: 'workspace.view',
    workspaceId: command.workspaceId,
  });
  const all = await listMembers(ctx.db, workspace.id);
  const { page, per_page } = command.page();
  return { items: all.slice((page - 1) * per_page, page * per_page).map(memberJson), total: all.length };
}

/** Who to add (by id or e-mail, exactly one) and with which role. */
export interface MemberInput {
  user_id?: number;
  email?: string;
  role: Role;
}

/** Add a member to a workspace or change their role. */
export interface SetMemberCommand {
  workspaceId: number;
  member: BodyReader<MemberInput>;
}

const ownerOnly = () => problems.forbidden({ reason: 'owner_only' });

/**
 * Adds a member or changes the role of an existing one, unless it would demote the last owner
 * (a workspace keeps an owner). The workspace's member rows are locked first, so two concurrent
 * demotions cannot both pass.
 * @returns `created` when the user was not a member, `updated`, or `last_owner` (nothing changed).
 */
export async function setMember(
  tx: Tx,
  workspaceId: number,
  userId: number,
  role: Role,
): Promise<'created' | 'updated' | 'last_owner'> {
  const members = await lockMembers(tx, workspaceId);
  const existing = members.find((m) => m.user_id === userId);
  if (!existing) {
    await insertMember(tx, workspaceId, userId, role);
    return 'created';
  }
  const owners = members.filter((m) => m.role === 'owner').length;
  if (existing.role === 'owner' && role !== 'owner' && owners <= 1) return 'last_owner';
  await updateMemberRole(tx, workspaceId, userId, role);
  return 'updated';
}

/**
 * Removes a member unless they are the last owner (member rows locked as in {@link setMember}).
 * @returns `removed`, `not_member` or `last_owner`.
 */
async function removeMember(
  tx: Tx,
  workspaceId: number,
  userId: number,
): Promise<'removed' | 'not_member' | 'last_owner'> {
  const members = await lockMembers(tx, workspaceId);
  const existing = members.find((m) => m.user_id === userId);
  if (!existing) return 'not_member';
  if (existing.role === 'owner' && members.filter((m) => m.role === 'owner').length <= 1) return 'last_owner';
  await deleteMember(tx, workspaceId, userId);
  return 'removed';
}

/**
 * Adds a registered user to a workspace or changes a member's role (`members.manage`).
 * @returns the member and whether it was `created` (else its role changed).
 * @throws 422 `unknown_user` (no such registered user), 403 when a non-owner grants, changes or
 * removes the owner role, 422 `last_owner` when it would demote the last owner; 404, 403 access.
 */
export async function setWorkspaceMember(
  ctx: CollectionContext,
  actor: Actor,
  command: SetMemberCommand,
): Promise<{ member: MemberView; created: boolean }> {
  const { workspace, role: actorRole } = await requireAccess(ctx, {
    actor,
    permission: 'members.manage',
    workspaceId: command.workspaceId,
  });
  const input = command.member();
  const user = input.user_id
    ? await findUserById(ctx.db, input.user_id)
    : await findUserByEmail(ctx.db, input.email!);
  if (!user) throw problems.unknownUser({ field: input.user_id ? 'user_id' : 'email' });
  const members = await listMembers(ctx.db, workspace.id);
  const current = members.find((m) => m.user_id === user.id)?.role;
  if (!mayManageRole(actorRole, input.role) || (current && !mayManageRole(actorRole, current)))
    throw ownerOnly();
  const outcome = await ctx.inTransaction((tx) => setMember(tx, workspace.id, user.id, input.role));
  if (outcome === 'last_owner') throw problems.lastOwner({ field: 'role' });
  const member = (await listMembers(ctx.db, workspace.id)).find((m) => m.user_id === user.id)!;
  return { member: memberJson(member), created: outcome === 'created' };
}

/**
 * Removes a member: any member may leave; removing another needs `members.manage` (and the
 * owner role to remove an owner).
 * @throws 404 when not a member, 422 `last_owner` for the last owner, 403 role.
 */
export async function removeWorkspaceMember(
  ctx: CollectionContext,
  actor: Actor,
  command: { workspaceId: number; userId: number },
): Promise<void> {
  const self = command.userId === actor.userId;
  const { workspace, role: actorRole } = await requireAccess(ctx, {
    actor,
    permission: self ? 'workspace.view' : 'members.manage',
    workspaceId: command.workspaceId,
  });
  const target = (await listMembers(ctx.db, workspace.id)).find((m) => m.user_id === command.userId);
  if (!target) throw problems.notFound({ resource: 'member' });
  if (!self && !mayManageRole(actorRole, target.role)) throw ownerOnly();
  const outcome = await ctx.inTransaction((tx) => removeMember(tx, workspace.id, command.userId));
  if (outcome === 'last_owner') throw problems.lastOwner({ field: 'user_id' });
  if (outcome === 'not_member') throw problems.notFound({ resource: 'member' });
}
