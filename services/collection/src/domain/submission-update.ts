import type { Tx } from '../data/tx.ts';
import { settingsOf, type ProjectRow } from '../data/projects.ts';
import {
  findSubmission,
  listHistory,
  updateSubmission as writeChange,
  type HistoryRow,
  type SubmissionRow,
} from '../data/submissions.ts';
import { insertVersion } from '../data/submission-versions.ts';
import { intakePhotos, type PendingPhoto } from './photo-intake.ts';
import { photoTransaction, storePhotos } from './photo-store.ts';
import { problems } from './problems.ts';
import { can, maySeeSubmission, type Role } from './roles.ts';
import type { SubmissionCoords } from './submission-create.ts';
import { requireAccess, userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import {
  checkEntries,
  keptPhotosOf,
  messageLanguage,
  versionForm,
  type VersionForm,
} from './submission-entries.ts';

/** The form of a version that no longer exists (a submission's version is never deleted). */
const NO_FORM: VersionForm = {
  projectId: 0,
  fields: [],
  languages: [],
  defaultLanguage: null,
  compiled: null,
};
import { searchTextOf, type DataEntry } from './submission-validation.ts';
import { namesOf } from './submission-read.ts';
import { changesOf } from './submission-versions.ts';
import { checkTransition, type Party, type Status } from './transitions.ts';

const COORDS = ['latitude', 'longitude', 'altitude', 'precision'] as const;

/** A change to a submission: a status (with its comment) and/or new data and coordinates. */
export interface SubmissionChange extends SubmissionCoords {
  status?: Status;
  /** Recorded in the status history with a status change. */
  comment?: string | null;
  /** The full new data entries (replacing the old ones); photos kept by `{photo_id}` (other members ignored). */
  data?: unknown[];
}

/** Command of {@link updateSubmission}. */
export interface UpdateSubmission {
  submission: SubmissionRow;
  project: ProjectRow;
  /** The signed-in actor (its collector, or a reviewer). */
  userId: number;
  /** The actor's role in the workspace; null counts the actor only as the collector. */
  role: Role | null;
  change: SubmissionChange;
  /**
   * Runs first in the update's transaction; resolving false abandons the update (rolled back,
   * result null). Sync moves its item's `client_updated_at` forward there.
   */
  guard?: (trx: Tx) => Promise<boolean>;
  /** The request's `Accept-Language`: the language of the form's messages. */
  acceptLanguage?: string;
}

/**
 * Changes a submission (docs/collection.md, "Status transitions" and "Submissions"): the one
 * update of `PUT /projects/{project_id}/submissions/{submission_id}` and of a newer item of
 * `POST /sync`.
 * - New data or coordinates from its collector while the submission may still be edited: a
 *   draft, one sent back (`requires_correction`), or a submitted one when the project has
 *   `allow_edits`; and from a role with `submission.review` whatever its status except a draft
 *   (docs/collection.md, "Editing a submission and its versions").
 * - An edit of a submission that is not a draft is kept as a version in the same transaction
 *   (who, when, the answers before → after, the location): `submission_versions`.
 * - A status change along the transition table, by whom the table names (the collector, or
 *   a role with `submission.review`); it is recorded in the history with `comment`.
 * - Data is validated against the submission's form version (required fields unless the result
 *   is a draft or `requires_correction`; submitting a draft checks its stored data); base64 photos are stored; a
 *   photo entry keeping one of the submission's photos (`{photo_id, ...}`) gets the value the
 *   server stored for it, whatever else the entry says (docs/collection.md, "Photos"); a
 *   `photo_id` the submission does not hold is a 422 on that entry.
 * @returns the updated submission, or null when `guard` abandoned the update.
 * @throws ProblemError 403 (neither the collector nor a reviewer, a reviewer on a draft,
 *   `edits_not_allowed`, a transition the actor may not make), 422 (`illegal_transition` with `current_status` and `requested_status`, already
 *   in that status, bad entries), 413 (`photo_too_large`).
 */
export async function updateSubmission(
  ctx: CollectionContext,
  cmd: UpdateSubmission,
): Promise<SubmissionRow | null> {
  const { submission: s0, change, userId } = cmd;
  const isCollector = s0.collector_id === userId;
  const parties: Party[] = [];
  if (isCollector) parties.push('collector');
  if (cmd.role && can(cmd.role, 'submission.review')) parties.push('reviewer');
  const changesData = change.data !== undefined || COORDS.some((k) => k in change);
  if (changesData) {
    const editable =
      s0.status === 'draft' ||
      s0.status === 'requires_correction' ||
      (s0.status === 'submitted' && settingsOf(cmd.project).allow_edits);
    // Reviewers correct what was sent, whatever its status; a draft stays its collector's.
    const reviewerMay = parties.includes('reviewer') && s0.status !== 'draft';
    if (!reviewerMay) {
      if (!isCollector)
        throw problems.forbidden({ reason: s0.status === 'draft' ? 'draft_of_another' : 'not_collector' });
      if (!editable) throw problems.editsNotAllowed({ status: s0.status });
    }
  }
  const newStatus = change.status && change.status !== s0.status ? change.status : undefined;
  if (change.status && !newStatus && !changesData)
    throw problems.illegalTransition({ from: s0.status, to: s0.status });
  if (newStatus && checkTransition(s0.status, newStatus, parties) === 'forbidden')
    throw problems.forbidden({ reason: 'transition', from: s0.status, to: newStatus });

  let entries: DataEntry[] | undefined;
  let search: string | undefined;
  let photos: PendingPhoto[] = [];
  const finalStatus = newStatus ?? s0.status;
  if (change.data !== undefined || newStatus === 'submitted') {
    const form = await versionForm(ctx.db, s0.form_version_id);
    const fields = form?.fields ?? [];
    // Required fields hold once sent: a draft or one sent back to its collector may be incomplete.
    const checked = checkEntries(change.data ?? s0.data, form ?? NO_FORM, new Map(), {
      enforceRequired: finalStatus !== 'draft' && finalStatus !== 'requires_correction',
      language: form ? messageLanguage(form, cmd.acceptLanguage) : null,
      keptPhotos: await keptPhotosOf(ctx.db, s0),
    });
    if (change.data !== undefined) {
      ({ entries, photos } = await intakePhotos(checked, new Map(), s0.project_id, ctx.photoMaxBytes));
      search = searchTextOf(entries, fields);
    }
  }
  const coords: SubmissionCoords = {};
  for (const k of COORDS) if (k in change) coords[k] = change[k] ?? null;
  // An edit of what was sent is kept as a version (a draft's changes are work in progress).
  const edit = s0.status === 'draft' ? null : changesOf(s0, entries, coords);
  return photoTransaction(ctx, photos, async (trx) => {
    if (cmd.guard && !(await cmd.guard(trx))) return null;
    const row = await writeChange(trx, s0, {
      ...(newStatus ? { status: newStatus } : {}),
      ...(entries ? { data: entries, search_text: search ?? '' } : {}),
      coords,
      userId,
      comment: change.comment || null,
    });
    await storePhotos(ctx, trx, s0.id, photos);
    if (edit && (edit.changes.length || edit.location))
      await insertVersion(trx, { submission_id: s0.id, user_id: userId, ...edit });
    return row;
  });
}

/** Command of {@link changeSubmission}. */
export interface ChangeSubmission {
  actor: Actor;
  projectId: number;
  submissionId: number;
  /**
   * Reads the requested change (the route parses its body there): called once the submission
   * is found and visible, so an unknown submission is a 404 whatever the body says.
   */
  readChange: () => SubmissionChange;
  /** The request's `Accept-Language`: the language of the form's messages. */
  acceptLanguage?: string;
}

/**
 * `PUT /projects/{project_id}/submissions/{submission_id}`: the submission the actor may see,
 * changed by {@link updateSubmission}.
 * @returns the updated submission, its status history (oldest first) and the names of the
 *   people they name (by user id).
 * @throws ProblemError 401 anonymous; 404 unknown or not visible to the actor (its collector,
 *   or a role with `submission.view_all`), whatever `readChange` throws (422), and every refusal of
 *   {@link updateSubmission}.
 */
export async function changeSubmission(
  ctx: CollectionContext,
  cmd: ChangeSubmission,
): Promise<{ submission: SubmissionRow; history: HistoryRow[]; names: Map<number, string> }> {
  const userId = userIdOf(cmd.actor);
  const { project, role } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const s0 = await findSubmission(ctx.db, project.id, cmd.submissionId);
  if (!s0 || !maySeeSubmission(role, s0, userId)) throw problems.notFound({ resource: 'submission' });
  const updated = await updateSubmission(ctx, {
    submission: s0,
    project,
    userId,
    role,
    change: cmd.readChange(),
    ...(cmd.acceptLanguage ? { acceptLanguage: cmd.acceptLanguage } : {}),
  });
  // Without a guard the update is never abandoned.
  const submission = updated ?? s0;
  const history = await listHistory(ctx.db, s0.id);
  return { submission, history, names: await namesOf(ctx, submission, history) };
}
