import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  appUserByKeyHash,
  findAppUser,
  insertAppUser,
  listAppUsers as listRows,
  revokeAppUser as revokeRow,
  type AppUserRow,
} from '../data/app-users.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { problems } from './problems.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ENTROPY_LENGTH = 40;
/** An app user's key: 40 characters of `[A-Za-z0-9]` (about 238 bits) and their CRC32 in hex. */
const KEY_SHAPE = /^[A-Za-z0-9]{40}[0-9a-f]{8}$/;

const checksum = (entropy: string) => crc32(entropy).toString(16).padStart(8, '0');

/** A new app user key, shaped like a personal access token's secret (docs/identity.md). */
function generateKey(): string {
  let entropy = '';
  for (let i = 0; i < ENTROPY_LENGTH; i++) entropy += ALPHABET[randomInt(ALPHABET.length)];
  return entropy + checksum(entropy);
}

/** Whether `key` has an app user key's shape and checksum (junk never reaches the database). */
const wellFormed = (key: string) =>
  KEY_SHAPE.test(key) && checksum(key.slice(0, ENTROPY_LENGTH)) === key.slice(ENTROPY_LENGTH);

/** SHA-256 hex of a key: the only form in which it is stored. */
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** An app user as the API shows it (never its key, except once in the create answer). */
export interface AppUserView {
  id: number;
  display_name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const view = (row: AppUserRow): AppUserView => ({
  id: row.id,
  display_name: row.display_name,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
});

/**
 * The address ODK Collect is set up with: `<PUBLIC_URL>/api/v1/key/{key}/projects/{project_id}`
 * (ODK Central's shape); the gateway takes the key out of the path and authenticates it.
 */
const serverUrlOf = (origin: string, key: string, projectId: number) =>
  `${origin.replace(/\/+$/, '')}/api/v1/key/${key}/projects/${projectId}`;

/**
 * `POST /projects/{project_id}/app-users`: a new app user of the project (`project.manage`:
 * owners, admins, managers), and its key, shown this once (only its SHA-256 is kept).
 * @returns the app user with `token` (the key) and `server_url`.
 * @throws ProblemError 401, 404 (project), 403 (role); whatever `readName` throws (422).
 */
export async function createAppUser(
  ctx: CollectionContext,
  cmd: {
    actor: Actor;
    projectId: number;
    readName: () => string;
    /** The public origin clients reach the gateway at (`https://fieldhouse.example`). */
    origin: string;
  },
): Promise<AppUserView & { token: string; server_url: string }> {
  const userId = userIdOf(cmd.actor);
  const { project } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.manage',
    projectId: cmd.projectId,
  });
  const displayName = cmd.readName();
  const key = generateKey();
  const row = await ctx.inTransaction((trx) =>
    insertAppUser(trx, {
      project_id: project.id,
      display_name: displayName,
      key_hash: hashKey(key),
      created_by: userId,
    }),
  );
  return { ...view(row), token: key, server_url: serverUrlOf(cmd.origin, key, project.id) };
}

/**
 * `GET /projects/{project_id}/app-users`: the project's app users, revoked ones included,
 * newest first, without their keys (`project.manage`).
 * @throws ProblemError 401, 404 (project), 403 (role).
 */
export async function listAppUsers(
  ctx: CollectionContext,
  cmd: { actor: Actor; projectId: number },
): Promise<AppUserView[]> {
  const { project } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.manage',
    projectId: cmd.projectId,
  });
  return (await listRows(ctx.db, project.id)).map(view);
}

/**
 * `POST /projects/{project_id}/app-users/{app_user_id}/revoke` (`project.manage`): its key stops
 * working on its next request (the service checks every app user request). Revoking twice keeps
 * the first instant.
 * @throws ProblemError 401, 404 (project or app user), 403 (role).
 */
export async function revokeAppUser(
  ctx: CollectionContext,
  cmd: { actor: Actor; projectId: number; appUserId: number },
): Promise<AppUserView> {
  const { project } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.manage',
    projectId: cmd.projectId,
  });
  const row = await findAppUser(ctx.db, project.id, cmd.appUserId);
  if (!row) throw problems.notFound({ resource: 'app_user' });
  return view(await ctx.inTransaction((trx) => revokeRow(trx, row.id)));
}

/**
 * `POST /app-users/authenticate` (the gateway's own call, `amr: "gateway"`; docs/identity.md,
 * "App users"): the app user of a key, if the key is well-formed, known and not revoked.
 * @returns its id, project and name.
 * @throws ProblemError 404 for any other caller (the route does not exist for them), 401
 *   `unauthenticated` for a malformed or unknown key, 401 `app_user_revoked`.
 */
export async function authenticateAppUser(
  ctx: CollectionContext,
  cmd: { caller: { method: string }; readKey: () => string },
): Promise<{ id: number; project_id: number; display_name: string }> {
  if (cmd.caller.method !== 'gateway') throw problems.notFound({ resource: 'route' });
  const key = cmd.readKey();
  if (!wellFormed(key)) throw problems.unauthenticated();
  const row = await appUserByKeyHash(ctx.db, hashKey(key));
  if (!row) throw problems.unauthenticated();
  if (row.revoked_at) throw problems.appUserRevoked();
  return { id: row.id, project_id: row.project_id, display_name: row.display_name };
}
