import { isDeepStrictEqual } from 'node:util';
import { problems } from './problems.ts';
import { findSubmission } from '../data/submissions.ts';
import {
  listVersions,
  type AnswerChange,
  type Location,
  type VersionRow,
} from '../data/submission-versions.ts';
import { maySeeSubmission } from './roles.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import type { SubmissionRow } from '../data/submissions.ts';
import type { DataEntry } from './submission-validation.ts';

export type { AnswerChange, Location, VersionRow };

const COORDS = ['latitude', 'longitude', 'altitude', 'precision'] as const;

/**
 * What an edit changes in a submission (docs/collection.md, "Editing a submission and its
 * versions"): the answers whose value differs, in the order of the new data then of the old one
 * (a missing entry counts as `null`, "no answer", so `null` and absent are the same), and the
 * location before and after when any of its four numbers differs.
 * @param after the new data entries, or undefined when the edit leaves the data alone.
 * @param coords the coordinates the edit sets (absent ones unchanged).
 */
export function changesOf(
  s: Pick<SubmissionRow, 'data' | (typeof COORDS)[number]>,
  after: DataEntry[] | undefined,
  coords: Partial<Location>,
): { changes: AnswerChange[]; location: { before: Location; after: Location } | null } {
  const changes: AnswerChange[] = [];
  if (after) {
    const before = new Map(s.data.map((e) => [e.field_uuid, e]));
    const seen = new Set<string>();
    for (const e of after) {
      seen.add(e.field_uuid);
      const old = before.get(e.field_uuid)?.value ?? null;
      if (!isDeepStrictEqual(old, e.value ?? null))
        changes.push({ field_uuid: e.field_uuid, type: e.type, before: old, after: e.value ?? null });
    }
    for (const e of s.data)
      if (!seen.has(e.field_uuid) && (e.value ?? null) !== null)
        changes.push({ field_uuid: e.field_uuid, type: e.type, before: e.value, after: null });
  }
  const was: Location = {
    latitude: s.latitude,
    longitude: s.longitude,
    altitude: s.altitude,
    precision: s.precision,
  };
  const now: Location = { ...was };
  for (const k of COORDS) if (k in coords) now[k] = coords[k] ?? null;
  const location = COORDS.some((k) => was[k] !== now[k]) ? { before: was, after: now } : null;
  return { changes, location };
}

/** Command of {@link listSubmissionVersions}. */
export interface ListSubmissionVersions {
  actor: Actor;
  projectId: number;
  submissionId: number;
  /** Reads the page number (from 1) and rows per page (1-100), once the project is visible. */
  readPage: () => { page: number; per_page: number };
}

/**
 * `GET /projects/{project_id}/submissions/{submission_id}/versions`: the edits of a submission
 * the actor may see, newest first, each with its number, author (id and name) and time, the
 * answers it changed (before → after) and the location when it changed.
 * @returns the rows of the page, the total, and the page asked for.
 * @throws ProblemError 401 anonymous; 404 unknown, or not visible to the actor (its collector,
 *   or a role with `submission.view_all`; non-members never); 422 a bad page.
 */
export async function listSubmissionVersions(
  ctx: CollectionContext,
  cmd: ListSubmissionVersions,
): Promise<{ rows: VersionRow[]; total: number; page: number; per_page: number }> {
  const userId = userIdOf(cmd.actor);
  const { project, role } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const { page, per_page } = cmd.readPage();
  const s = await findSubmission(ctx.db, project.id, cmd.submissionId);
  if (!s || !maySeeSubmission(role, s, userId)) throw problems.notFound({ resource: 'submission' });
  return { ...(await listVersions(ctx.db, s.id, page, per_page)), page, per_page };
}
