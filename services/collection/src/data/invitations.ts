import type { Knex } from 'knex';
import type { Role } from '../domain/types.ts';

type Db = Knex | Knex.Transaction;

/** A row of `workspace_invitations` with the inviter's name from the users projection. */
export interface InvitationRow {
  id: number;
  workspace_id: number;
  email: string;
  role: Role;
  invited_by: number;
  invited_by_name: string | null;
  created_at: Date;
  sent_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_user_id: number | null;
}

const withInviter = (db: Db) =>
  db('workspace_invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select('i.*', 'u.name as invited_by_name');

/** The workspace's open (not accepted) invitations, expired ones included, newest first. */
export const listOpenInvitations = (db: Db, workspaceId: number): Promise<InvitationRow[]> =>
  withInviter(db)
    .where('i.workspace_id', workspaceId)
    .whereNull('i.accepted_at')
    .orderBy([
      { column: 'i.sent_at', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ]);

/** One open invitation of the workspace, or undefined. */
export const findOpenInvitation = (
  db: Db,
  workspaceId: number,
  id: number,
): Promise<InvitationRow | undefined> =>
  withInviter(db).where({ 'i.workspace_id': workspaceId, 'i.id': id }).whereNull('i.accepted_at').first();

/** The invitation with this id (any state), with the inviter's name. */
export const invitationById = (db: Db, id: number): Promise<InvitationRow> =>
  withInviter(db).where('i.id', id).first() as Promise<InvitationRow>;

/**
 * Creates the open invitation of `email` (lower-cased) to the workspace, or, when one is open
 * already, gives it the new role, inviter and expiry and marks it sent now (a re-invitation).
 * @returns its id and whether it was `created`.
 */
export async function upsertOpenInvitation(
  db: Db,
  input: { workspaceId: number; email: string; role: Role; invitedBy: number; expiresAt: Date },
): Promise<{ id: number; created: boolean }> {
  const { rows } = await db.raw<{ rows: Array<{ id: number; created: boolean }> }>(
    `INSERT INTO workspace_invitations (workspace_id, email, role, invited_by, expires_at)
     VALUES (?, lower(?), ?, ?, ?)
     ON CONFLICT (workspace_id, email) WHERE accepted_at IS NULL
     DO UPDATE SET role = excluded.role, invited_by = excluded.invited_by,
       expires_at = excluded.expires_at, sent_at = now()
     RETURNING id, (xmax = 0) AS created`,
    [input.workspaceId, input.email, input.role, input.invitedBy, input.expiresAt],
  );
  return rows[0]!;
}

/** Records an invitation accepted at once (the address already had an account). */
export async function insertAcceptedInvitation(
  db: Db,
  input: { workspaceId: number; email: string; role: Role; invitedBy: number; userId: number },
): Promise<number> {
  const [row] = (await db('workspace_invitations')
    .insert({
      workspace_id: input.workspaceId,
      email: input.email.toLowerCase(),
      role: input.role,
      invited_by: input.invitedBy,
      expires_at: db.fn.now(),
      accepted_at: db.fn.now(),
      accepted_user_id: input.userId,
    })
    .returning('id')) as Array<{ id: number }>;
  return row!.id;
}

/** Gives an open invitation a new expiry and marks it sent now (resend). */
export const renewInvitation = (db: Db, id: number, expiresAt: Date) =>
  db('workspace_invitations')
    .where({ id })
    .whereNull('accepted_at')
    .update({ expires_at: expiresAt, sent_at: db.fn.now() });

/** Deletes an open invitation (revoke); resolves with how many rows went (0 or 1). */
export const deleteOpenInvitation = (db: Db, workspaceId: number, id: number): Promise<number> =>
  db('workspace_invitations').where({ workspace_id: workspaceId, id }).whereNull('accepted_at').delete();

/**
 * Turns every open, unexpired invitation of `email` into a membership of `userId` with the
 * invitation's role, in the caller's transaction: rows are locked (`FOR UPDATE`), a user who is
 * a member already keeps their membership and role (no duplicate), and each invitation is marked
 * accepted. Expired invitations stay open (an inviter may resend them).
 * @returns the workspaces joined (those where a membership was created).
 */
export async function acceptOpenInvitations(
  trx: Knex.Transaction,
  userId: number,
  email: string,
): Promise<number[]> {
  const open = (await trx('workspace_invitations')
    .where('email', email.toLowerCase())
    .whereNull('accepted_at')
    .where('expires_at', '>', trx.fn.now())
    .forUpdate()
    .select('id', 'workspace_id', 'role')) as Array<{ id: number; workspace_id: number; role: Role }>;
  const joined: number[] = [];
  for (const inv of open) {
    const inserted = (await trx('workspace_members')
      .insert({ workspace_id: inv.workspace_id, user_id: userId, role: inv.role })
      .onConflict(['workspace_id', 'user_id'])
      .ignore()
      .returning('workspace_id')) as unknown[];
    if (inserted.length > 0) joined.push(inv.workspace_id);
    await trx('workspace_invitations')
      .where({ id: inv.id })
      .update({ accepted_at: trx.fn.now(), accepted_user_id: userId });
  }
  return joined;
}
