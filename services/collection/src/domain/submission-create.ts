import type { Tx } from '../data/tx.ts';
import type { EmailRequested } from '@fieldhouse/contracts';
import { lockProject, settingsOf, type ProjectRow } from '../data/projects.ts';
import {
  collectorHasSubmission,
  countProjectSubmissions,
  insertSubmission,
  type HistoryRow,
  type SubmissionRow,
} from '../data/submissions.ts';
import { preferencesByEmail } from '../data/users.ts';
import { openToNonMembers, requireAccess } from './access.ts';
import { intakePhotos } from './photo-intake.ts';
import { photoTransaction, storePhotos } from './photo-store.ts';
import { windowProblem, type PublicationSettings } from './publication.ts';
import { problems } from './problems.ts';
import { can } from './roles.ts';
import { checkEntries, messageLanguage, publishedForm } from './submission-entries.ts';
import type { ProjectAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { searchTextOf } from './submission-validation.ts';
import { submissionEmails } from './submission-email.ts';
import { changes } from './changes.ts';

/** Location of a submission (degrees, metres); null clears a value. */
export interface SubmissionCoords {
  latitude?: number | null;
  longitude?: number | null;
  altitude?: number | null;
  precision?: number | null;
}

/** The values of a new submission (spec 2.1 body, parsed), with `status` and `consent`. */
export interface SubmissionValues extends SubmissionCoords {
  form_version_id: number;
  /** Data entries, validated against the version's fields by the use case. */
  data: unknown[];
  /** `draft` (required fields not enforced) or `submitted`. */
  status: 'draft' | 'submitted';
  /** Required `true` when the project requires consent. */
  consent?: boolean;
}

/** A submission's body as the route read it: its values and the uploaded photos. */
interface SubmissionBody {
  values: SubmissionValues;
  /** Uploaded photos (multipart) by photo field uuid; empty for JSON bodies (base64 photos). */
  photos: ReadonlyMap<string, Buffer>;
}

/** Command of {@link createSubmission}. */
export interface CreateSubmission {
  actor: Actor;
  projectId: number;
  /**
   * Reads and checks the body (JSON or multipart): called once the project accepts the actor's
   * submission, so publication refusals come before anything about the body.
   */
  readBody: () => Promise<SubmissionBody>;
  /** The request's `Accept-Language`: the language of the form's messages (docs/collection.md, "Logic"). */
  acceptLanguage?: string;
}

/** Command of {@link storeSubmission}: a submission {@link assertAccepting} let in. */
export interface StoreSubmission extends SubmissionBody {
  access: ProjectAccess;
  actor: Actor;
  /** The project's settings, as {@link assertAccepting} returned them. */
  settings: PublicationSettings;
  /**
   * Runs in the submission's transaction after its insert (sync records its item identity
   * there); if it throws, nothing is written.
   */
  afterInsert?: (trx: Tx, s: SubmissionRow) => Promise<void>;
  /** The request's `Accept-Language`: the language of the form's messages. */
  acceptLanguage?: string;
}

/**
 * The project's settings when it accepts a submission from this actor now (docs/collection.md,
 * "Publication"): published, open to the actor (a role that may submit, or a `collect_access`
 * letting non-members in), inside its collection window.
 * @throws ProblemError 422 `project_not_published`, 403 role may not submit, 422
 *   `collection_not_started`/`collection_ended` (the window).
 */
export function assertAccepting({ project, role }: ProjectAccess, actor: Actor): PublicationSettings {
  const open = openToNonMembers(project, actor);
  if (!project.is_published) throw problems.projectNotPublished();
  if (!open && !(role && can(role, 'submission.create')))
    throw problems.forbidden({ reason: 'submit', role });
  const settings = settingsOf(project);
  const closed = windowProblem(settings, new Date());
  if (closed) throw closed;
  return settings;
}

/**
 * The e-mail jobs of `notify_on_submission` (spec 6): in each recipient's language and time
 * zone when the address is a user's, with a link to the submission in the console.
 */
async function notifications(
  trx: Tx,
  publicUrl: string,
  project: ProjectRow,
  s: SubmissionRow,
  settings: PublicationSettings,
): Promise<EmailRequested[]> {
  const known = await preferencesByEmail(trx, settings.notification_emails);
  return submissionEmails(
    settings.notification_emails,
    known,
    {
      projectId: project.id,
      projectName: project.name,
      submissionId: s.id,
      status: s.status,
      createdAt: s.created_at,
    },
    publicUrl,
  );
}

/**
 * `POST /projects/{project_id}/submissions` (spec 2.1; docs/collection.md, "Submissions"): the
 * actor reaches the project (`project.open` of {@link requireAccess}: a member, or whoever its
 * `collect_access` lets in), the project accepts their submission now ({@link assertAccepting}),
 * then the body is read and the submission stored ({@link storeSubmission}).
 * @returns the stored submission (its first history entry is its creation).
 * @throws ProblemError 401/404 access; every refusal of {@link assertAccepting}, of `readBody`
 *   (400, 413, 422) and of {@link storeSubmission}.
 */
export async function createSubmission(
  ctx: CollectionContext,
  cmd: CreateSubmission,
): Promise<SubmissionRow> {
  const access = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const settings = assertAccepting(access, cmd.actor);
  const body = await cmd.readBody();
  return storeSubmission(ctx, {
    ...body,
    access,
    actor: cmd.actor,
    settings,
    ...(cmd.acceptLanguage ? { acceptLanguage: cmd.acceptLanguage } : {}),
  });
}

/**
 * Stores one submission the project accepts ({@link assertAccepting} ran) under every other
 * publication rule (spec 2.1, 8; docs/collection.md, "Submissions"): used by
 * {@link createSubmission} and by each item of `POST /sync`, so both accept and refuse exactly
 * the same things. A plain submission (no
 * limit, no one-per-collector rule, no photo, no e-mail) is one group-committed statement;
 * otherwise one transaction locks the project, checks the limits, stores photos and queues
 * the `notify_on_submission` e-mail in the outbox.
 * @returns the stored submission (its first history entry is its creation).
 * @throws ProblemError 422 (`submission_limit_reached`, `already_submitted`, `consent_required`,
 *   draft or foreign version, bad entries), 413 (`photo_too_large`).
 */
export async function storeSubmission(ctx: CollectionContext, cmd: StoreSubmission): Promise<SubmissionRow> {
  const { project } = cmd.access;
  const { settings, values } = cmd;
  if (settings.require_consent && values.consent !== true) throw problems.consentRequired();
  const form = await publishedForm(ctx.db, project, values.form_version_id);
  const { fields } = form;
  const checked = checkEntries(values.data, form, cmd.photos, {
    enforceRequired: values.status === 'submitted',
    language: messageLanguage(form, cmd.acceptLanguage),
  });
  const { entries, photos } = await intakePhotos(checked, cmd.photos, project.id, ctx.photoMaxBytes);
  const collectorId = cmd.actor.userId;

  const row = {
    project_id: project.id,
    form_version_id: values.form_version_id,
    collector_id: collectorId,
    status: values.status,
    latitude: values.latitude ?? null,
    longitude: values.longitude ?? null,
    altitude: values.altitude ?? null,
    precision: values.precision ?? null,
    data: entries,
    search_text: searchTextOf(entries, fields),
    consent: values.consent ?? null,
  };
  const notify = settings.notify_on_submission && settings.notification_emails.length > 0;
  const mustLock =
    settings.submission_limit !== null || (!settings.allow_multiple_submissions && collectorId !== null);
  // The common case (no limit to check, no photo, no e-mail) is one atomic statement,
  // group-committed with the submissions arriving meanwhile.
  if (!mustLock && !notify && photos.length === 0 && !cmd.afterInsert) return ctx.insertSubmission(row);
  return photoTransaction(ctx, photos, async (trx, outbox) => {
    if (mustLock) await lockProject(trx, project.id);
    if (
      settings.submission_limit !== null &&
      (await countProjectSubmissions(trx, project.id)) >= settings.submission_limit
    )
      throw problems.submissionLimitReached({ limit: settings.submission_limit });
    if (
      !settings.allow_multiple_submissions &&
      collectorId !== null &&
      (await collectorHasSubmission(trx, project.id, collectorId))
    )
      throw problems.alreadySubmitted();
    const s = await insertSubmission(trx, row);
    // First after the insert: a refusal there (an OpenRosa instance received before) stores no photo.
    if (cmd.afterInsert) await cmd.afterInsert(trx, s);
    await storePhotos(ctx, trx, s.id, photos);
    if (notify)
      for (const email of await notifications(trx, ctx.publicUrl, project, s, settings))
        await changes.append(outbox, 'email.requested', email);
    return s;
  });
}

/**
 * The first entry of a new submission's status history (written with it by the insert):
 * created by its collector with its status. Lets the create answer show the history without
 * reading it back.
 */
export const creationHistory = (s: SubmissionRow): HistoryRow[] => [
  {
    id: 0,
    from_status: null,
    to_status: s.status,
    user_id: s.collector_id,
    comment: null,
    created_at: s.created_at,
  },
];
