import type { Knex } from 'knex';
import type { Role } from '../domain/types.ts';
import type { Tx } from './tx.ts';

export interface WorkspaceRow {
  id: number;
  name: string;
  description: string | null;
  created_by: number;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  user_id: number;
  role: Role;
  name: string | null;
  email: string | null;
  created_at: Date;
}

/** API shape of a workspace; `role` is the caller's. */
export const workspaceJson = (w: WorkspaceRow, role?: Role, members?: MemberRow[]) => ({
  id: w.id,
  name: w.name,
  description: w.description,
  created_by: w.created_by,
  ...(role ? { role } : {}),
  ...(members ? { members: members.map(memberJson) } : {}),
  created_at: w.created_at,
  updated_at: w.updated_at,
});

/** API shape of a member. */
export const memberJson = (m: MemberRow) => ({
  user_id: m.user_id,
  name: m.name,
  email: m.email,
  role: m.role,
  joined_at: m.created_at,
});

/** Workspaces the user is a member of, newest first, one page, with the total. */
export async function listWorkspaces(db: Knex, userId: number, page: number, perPage: number) {
  const base = db('workspaces as w')
    .join('workspace_members as m', 'm.workspace_id', 'w.id')
    .where('m.user_id', userId);
  const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number }];
  const rows = (await base
    .clone()
    .select('w.*', 'm.role')
    .orderBy('w.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)) as Array<WorkspaceRow & { role: Role }>;
  return { rows, total: Number(n) };
}

/** Creates a workspace with its creator as owner (two inserts: call it in a transaction). */
export async function createWorkspace(
  tx: Tx,
  input: { name: string; description?: string | null },
  userId: number,
): Promise<WorkspaceRow> {
  const [w] = (await tx('workspaces')
    .insert({ name: input.name, description: input.description ?? null, created_by: userId })
    .returning('*')) as [WorkspaceRow];
  await tx('workspace_members').insert({ workspace_id: w.id, user_id: userId, role: 'owner' });
  return w;
}

export const findWorkspace = (db: Knex, id: number): Promise<WorkspaceRow | undefined> =>
  db('workspaces').where({ id }).first();

/** The user's role in a workspace, or undefined when not a member. */
export async function roleIn(db: Knex, workspaceId: number, userId: number): Promise<Role | undefined> {
  const row = (await db('workspace_members')
    .where({ workspace_id: workspaceId, user_id: userId })
    .first('role')) as { role: Role } | undefined;
  return row?.role;
}

export async function updateWorkspace(
  db: Knex,
  id: number,
  patch: { name?: string; description?: string | null },
): Promise<WorkspaceRow> {
  const [w] = (await db('workspaces')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() })
    .returning('*')) as [WorkspaceRow];
  return w;
}

export const deleteWorkspace = (db: Knex, id: number) => db('workspaces').where({ id }).delete();

/** Members with their names and e-mails from the users projection, by join date. */
export const listMembers = (db: Knex, workspaceId: number): Promise<MemberRow[]> =>
  db('workspace_members as m')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .where('m.workspace_id', workspaceId)
    .select('m.user_id', 'm.role', 'm.created_at', 'u.name', 'u.email')
    .orderBy([{ column: 'm.created_at' }, { column: 'm.user_id' }]);

/** The workspace's members, their rows locked until the transaction ends (last-owner rules). */
export const lockMembers = (trx: Tx, workspaceId: number) =>
  trx('workspace_members')
    .where({ workspace_id: workspaceId })
    .forUpdate()
    .select('user_id', 'role') as Promise<Array<{ user_id: number; role: Role }>>;

/** Adds a member with `role`. */
export const insertMember = (tx: Tx, workspaceId: number, userId: number, role: Role) =>
  tx('workspace_members').insert({ workspace_id: workspaceId, user_id: userId, role });

/** Changes a member's role. */
export const updateMemberRole = (tx: Tx, workspaceId: number, userId: number, role: Role) =>
  tx('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).update({ role });

/** Removes a member. */
export const deleteMember = (tx: Tx, workspaceId: number, userId: number) =>
  tx('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).delete();

/** Which of `projectIds` are projects of the workspace. */
export async function projectIdsIn(db: Knex, workspaceId: number, projectIds: number[]): Promise<number[]> {
  const rows = (await db('projects')
    .select('id')
    .where('workspace_id', workspaceId)
    .whereIn('id', projectIds)) as Array<{ id: number }>;
  return rows.map((r) => r.id);
}

/** The workspace's name and the e-mail addresses of its owners (users projection). */
export async function workspaceOwners(
  db: Knex,
  workspaceId: number,
): Promise<{ name: string; emails: string[] } | undefined> {
  const ws = (await db('workspaces').select('name').where('id', workspaceId).first()) as
    { name: string } | undefined;
  if (!ws) return undefined;
  const rows = (await db('workspace_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where({ 'm.workspace_id': workspaceId, 'm.role': 'owner' })) as Array<{ email: string }>;
  return { name: ws.name, emails: rows.map((r) => r.email) };
}
