import { GroupCommit, statementBatches } from '@fieldhouse/group-commit';
import type { Knex } from 'knex';
import { DEFAULT_SETTINGS, type PublicationSettings } from '../domain/types.ts';

export interface ProjectRow {
  id: number;
  workspace_id: number;
  name: string;
  description: string | null;
  is_published: boolean;
  published_at: Date | null;
  current_version_id: number | null;
  settings: Partial<PublicationSettings>;
  created_by: number;
  created_at: Date;
  updated_at: Date;
}

/** The project's publication settings with defaults for unset keys. */
export const settingsOf = (p: ProjectRow): PublicationSettings => ({ ...DEFAULT_SETTINGS, ...p.settings });

/**
 * API shape of a project: its publication state, the published form version collectors get
 * (`current_version_id`), its settings and, at the top level too, `consent_text`.
 */
export const projectJson = (p: ProjectRow) => {
  const settings = settingsOf(p);
  return {
    id: p.id,
    workspace_id: p.workspace_id,
    name: p.name,
    description: p.description,
    is_published: p.is_published,
    published_at: p.published_at,
    current_version_id: p.current_version_id,
    require_consent: settings.require_consent,
    consent_text: settings.consent_text,
    settings,
    created_by: p.created_by,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
};

export async function listProjects(db: Knex, workspaceId: number, page: number, perPage: number) {
  const [{ n }] = (await db('projects').where({ workspace_id: workspaceId }).count({ n: '*' })) as [
    { n: number },
  ];
  const rows = (await db('projects')
    .where({ workspace_id: workspaceId })
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)) as ProjectRow[];
  return { rows, total: Number(n) };
}

export async function createProject(
  db: Knex,
  workspaceId: number,
  input: { name: string; description?: string | null },
  userId: number,
): Promise<ProjectRow> {
  const [p] = (await db('projects')
    .insert({
      workspace_id: workspaceId,
      name: input.name,
      description: input.description ?? null,
      created_by: userId,
    })
    .returning('*')) as [ProjectRow];
  return p;
}

/**
 * Locks a project's row until the transaction ends (`SELECT ... FOR UPDATE`): the submissions
 * whose limits are checked (`submission_limit`, one per collector) are counted one at a time.
 */
export async function lockProject(tx: Knex.Transaction, id: number): Promise<void> {
  await tx('projects').where({ id }).forUpdate().first('id');
}

export const findProject = (db: Knex | Knex.Transaction, id: number): Promise<ProjectRow | undefined> =>
  db('projects').where({ id }).first();

/**
 * A project and the caller's role in its workspace (null when not a member), in one query:
 * the hot path of every project-scoped request.
 */
/** A project and the caller's role in its workspace (null: not a member). */
export interface ProjectWithRole {
  project: ProjectRow;
  role: string | null;
}

export async function findProjectWithRole(
  db: Knex,
  id: number,
  userId: number | null,
): Promise<ProjectWithRole | undefined> {
  const row = (await db('projects as p')
    .leftJoin('workspace_members as m', (j) =>
      j.on('m.workspace_id', 'p.workspace_id').andOn('m.user_id', db.raw('?', [userId ?? -1])),
    )
    .where('p.id', id)
    .first('p.*', 'm.role as member_role')) as (ProjectRow & { member_role: string | null }) | undefined;
  if (!row) return undefined;
  const { member_role, ...project } = row;
  return { project: project as ProjectRow, role: member_role };
}

/**
 * {@link findProjectWithRole}, batched (@fieldhouse/group-commit): lookups that arrive while
 * earlier ones are being read wait and are answered together by one query, whatever the
 * projects and users. Each lookup's query starts after the lookup was asked for, so it sees
 * every change committed before its request arrived, as a query of its own would.
 */
export function projectLookups(db: Knex) {
  type Row = ProjectRow & { member_role: string | null };
  const write = statementBatches<LookupKey, Row, ProjectWithRole | undefined>({
    statement: async (keys) =>
      (
        await db.raw(
          `SELECT k.ord, p.*, m.role AS member_role
           FROM jsonb_to_recordset(?::jsonb) AS k(ord int, project_id bigint, user_id bigint)
           JOIN projects p ON p.id = k.project_id
           LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = k.user_id`,
          [JSON.stringify(keys.map((k, ord) => ({ ord, project_id: k.id, user_id: k.userId ?? -1 })))],
        )
      ).rows as Array<Row & { ord: number }>,
    alone: (k) => findProjectWithRole(db, k.id, k.userId),
    fromRow: ({ ord: _ord, member_role, ...project }: Row & { ord?: number }) => ({
      project: project as ProjectRow,
      role: member_role,
    }),
    noRow: () => undefined,
  });
  const batch = new GroupCommit(write, { maxBatch: 200, maxInFlight: 2 });
  return (id: number, userId: number | null) => batch.submit({ id, userId });
}

interface LookupKey {
  id: number;
  userId: number | null;
}

export async function updateProject(
  db: Knex,
  id: number,
  patch: Record<string, unknown>,
): Promise<ProjectRow> {
  const [p] = (await db('projects')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() })
    .returning('*')) as [ProjectRow];
  return p;
}

export const deleteProject = (db: Knex, id: number) => db('projects').where({ id }).delete();
