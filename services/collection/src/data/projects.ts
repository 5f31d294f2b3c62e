import { SingleFlight } from '@fieldhouse/group-commit';
import type { Knex } from 'knex';
import { DEFAULT_SETTINGS, type PublicationSettings } from '../domain/publication.ts';

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

export const findProject = (db: Knex | Knex.Transaction, id: number): Promise<ProjectRow | undefined> =>
  db('projects').where({ id }).first();

/**
 * A project and the caller's role in its workspace (null when not a member), in one query:
 * the hot path of every project-scoped request.
 */
export async function findProjectWithRole(
  db: Knex,
  id: number,
  userId: number | null,
): Promise<{ project: ProjectRow; role: string | null } | undefined> {
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
 * {@link findProjectWithRole} with request coalescing: concurrent lookups of the same project
 * and user share one query (a collector or an integration sending many submissions at once).
 */
export function projectLookups(db: Knex) {
  const flights = new SingleFlight(
    ({ id, userId }: { id: number; userId: number | null }) => findProjectWithRole(db, id, userId),
    ({ id, userId }) => `${id}:${userId ?? ''}`,
  );
  return (id: number, userId: number | null) => flights.get({ id, userId });
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
