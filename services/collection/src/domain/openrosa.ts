import { createHash } from 'node:crypto';
import { findVersion, listFields, type FieldRow, type VersionRow } from '../data/versions.ts';
import type { ProjectRow } from '../data/projects.ts';
import { findSubmission, type SubmissionRow } from '../data/submissions.ts';
import { findInstance, insertInstance, publishedVersionByNumber } from '../data/openrosa.ts';
import { isUniqueViolation } from '../data/tx.ts';
import { requireAccess } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { problems } from './problems.ts';
import { maySeeSubmission } from './roles.ts';
import { assertAccepting, storeSubmission } from './submission-create.ts';
import { updateSubmission } from './submission-update.ts';
import { renderXForm, xformId, type RenderedXForm } from './xform.ts';
import { instanceHeadOf, parseInstance } from './xform-instance.ts';

/**
 * OpenRosa 1.0 for ODK Collect and Enketo (issue 35; docs/collection.md, "ODK Collect and
 * Enketo"): the Form List API, the form and its manifest, the Form Submission API. A project has
 * one form, `fieldhouse-<project id>` (xform.ts `xformId`), in the version of its current
 * published version; a submission is an ordinary submission (the same use case as the JSON API).
 */

/** A form of the form list: what `<xform>` of the OpenRosa Form List API names. */
export interface ListedForm {
  formId: string;
  name: string;
  version: string;
  /** `md5:<hex>` of the XForm. */
  hash: string;
}

/**
 * A cache of this module per database (a process serving several, as tests do, keeps their
 * projects and versions apart): `cacheOf(db)` is that database's map, created on first use.
 */
function perDatabase<K, V>(): (db: CollectionContext['db']) => Map<K, V> {
  const maps = new WeakMap<CollectionContext['db'], Map<K, V>>();
  return (db) => {
    let map = maps.get(db);
    if (!map) maps.set(db, (map = new Map()));
    return map;
  };
}

/**
 * Rendered XForms of published versions by version id: a published version is frozen, so its
 * XForm changes only with the project's name (its title), which the entry records.
 */
const renderedIn = perDatabase<number, { title: string; form: RenderedXForm }>();

/** The XForm of a published version of `project` (rendered once, then from memory). */
async function xformOf(
  ctx: CollectionContext,
  project: ProjectRow,
  version: VersionRow,
): Promise<RenderedXForm> {
  const rendered = renderedIn(ctx.db);
  const hit = rendered.get(version.id);
  if (hit && hit.title === project.name) return hit.form;
  const form = renderXForm({ title: project.name, version, fields: await listFields(ctx.db, version.id) });
  if (rendered.size >= 1000) rendered.clear();
  rendered.set(version.id, { title: project.name, form });
  return form;
}

/** The project's current published version, while the project collects; else null. */
async function currentVersion(ctx: CollectionContext, project: ProjectRow): Promise<VersionRow | null> {
  if (!project.is_published || project.current_version_id === null) return null;
  const v = await findVersion(ctx.db, project.current_version_id);
  return v && v.status === 'published' ? v : null;
}

/**
 * `GET .../projects/{project_id}/formList` (OpenRosa Form List API): the project's form, while the
 * project is published and the caller may collect for it (its app users, members, and whoever
 * its `collect_access` lets in); an empty list while it does not collect.
 * @throws ProblemError 401 (anonymous on a closed project, a revoked app user), 404.
 */
export async function openRosaFormList(
  ctx: CollectionContext,
  cmd: { actor: Actor; projectId: number },
): Promise<ListedForm[]> {
  const { project } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const version = await currentVersion(ctx, project);
  if (!version) return [];
  const form = await xformOf(ctx, project, version);
  return [{ formId: form.formId, name: project.name, version: form.version, hash: form.hash }];
}

/**
 * `GET .../projects/{project_id}/forms/{form_id}.xml` and `.../manifest`: the XForm of the
 * project's current published version.
 * @throws ProblemError 401, 404 (another form id, a project that does not collect).
 */
export async function openRosaForm(
  ctx: CollectionContext,
  cmd: { actor: Actor; projectId: number; formId: string },
): Promise<RenderedXForm> {
  const { project } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const version = cmd.formId === xformId(project.id) ? await currentVersion(ctx, project) : null;
  if (!version) throw problems.notFound({ resource: 'form' });
  return xformOf(ctx, project, version);
}

/**
 * `HEAD .../projects/{project_id}/submission`: whether the caller may submit to the project (ODK
 * Collect asks before sending, and signs in when answered 401).
 * @throws ProblemError 401, 404, and the refusals of {@link assertAccepting}.
 */
export async function openRosaSubmissionCheck(
  ctx: CollectionContext,
  cmd: { actor: Actor; projectId: number },
): Promise<void> {
  const access = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  assertAccepting(access, cmd.actor);
}

/**
 * Published versions by project and number, with their fields: a published version never changes
 * (its fields are frozen and it is never unpublished), so each is read once per process.
 */
const publishedFormsIn = perDatabase<string, { version: VersionRow; fields: FieldRow[] }>();

/** The project's published version numbered `number` and its fields, or undefined. */
async function publishedForm(
  ctx: CollectionContext,
  projectId: number,
  number: number,
): Promise<{ version: VersionRow; fields: FieldRow[] } | undefined> {
  const key = `${projectId}:${number}`;
  const forms = publishedFormsIn(ctx.db);
  const hit = forms.get(key);
  if (hit) return hit;
  const version = await publishedVersionByNumber(ctx.db, projectId, number);
  if (!version) return undefined;
  const form = { version, fields: await listFields(ctx.db, version.id) };
  if (forms.size >= 1000) forms.clear();
  forms.set(key, form);
  return form;
}

/** The parts of an OpenRosa submission: `xml_submission_file` and the attachments by file name. */
export interface OpenRosaBody {
  xml: Buffer;
  files: Map<string, Buffer>;
}

/** What {@link receiveOpenRosaSubmission} did: `created` a submission, an `edit` of one, or a `duplicate`. */
export interface OpenRosaReceipt {
  outcome: 'created' | 'edited' | 'duplicate';
  submission: SubmissionRow | { id: number };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * `POST .../projects/{project_id}/submission` (OpenRosa Form Submission API): the instance
 * becomes an ordinary submission through the JSON API's own steps (the same access and
 * publication rules, {@link assertAccepting} then {@link storeSubmission}: validation and logic,
 * photos, e-mails, webhooks). Its `meta/instanceID` is its idempotency key, recorded in the
 * submission's transaction:
 * - an instanceID received before with the same XML (by SHA-256): `duplicate`, nothing stored;
 * - with other XML: 409 `instance_conflict`, nothing stored;
 * - an instance naming a received one in `meta/deprecatedID` is an **edit** of that submission
 *   (ODK's rule): a new submission version ({@link updateSubmission}, the PUT's rules: its
 *   collector or a reviewer; app users may not edit, 403).
 * The form version is the published one whose number the instance's root `version` names.
 * @throws ProblemError 401/404 access, every refusal of {@link assertAccepting}, 400 malformed or
 *   hostile XML (`readBody`, `parseInstance`), 404 another form or version, 409, 413, 422.
 */
export async function receiveOpenRosaSubmission(
  ctx: CollectionContext,
  cmd: { actor: Actor; projectId: number; readBody: () => Promise<OpenRosaBody>; acceptLanguage?: string },
): Promise<OpenRosaReceipt> {
  const access = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'project.open',
    projectId: cmd.projectId,
  });
  const settings = assertAccepting(access, cmd.actor);
  const { project } = access;
  const body = await cmd.readBody();
  const head = instanceHeadOf(body.xml);
  const versionNumber = /^[1-9][0-9]{0,8}$/.test(head.version ?? '') ? Number(head.version) : null;
  const form =
    head.formId === xformId(project.id) && versionNumber !== null
      ? await publishedForm(ctx, project.id, versionNumber)
      : undefined;
  if (!form) throw problems.notFound({ resource: 'form' });
  const { version } = form;
  const parsed = parseInstance(body.xml, { title: project.name, version, fields: form.fields });
  const xmlHash = sha256(body.xml);
  // An instance received before is found by its key when its row is inserted (below: the unique
  // key of instanceID meets it, the transaction rolls back, nothing stored), not looked up first:
  // a resend is rare and a first send, the rule, saves a round trip (bench:openrosa).
  const appUserId = cmd.actor.appUser?.id ?? null;
  const record = (submissionId: number) => ({
    project_id: project.id,
    instance_id: parsed.instanceId,
    submission_id: submissionId,
    xml_sha256: xmlHash,
    app_user_id: appUserId,
  });
  try {
    if (parsed.deprecatedId !== undefined) {
      const edited = await findInstance(ctx.db, project.id, parsed.deprecatedId);
      const s0 = edited ? await findSubmission(ctx.db, project.id, edited.submission_id) : undefined;
      if (!s0) throw problems.notFound({ resource: 'submission' });
      if (cmd.actor.appUser || cmd.actor.userId === null)
        throw problems.forbidden({ reason: 'app_user_edit' });
      if (!maySeeSubmission(access.role, s0, cmd.actor.userId))
        throw problems.notFound({ resource: 'submission' });
      const updated = await updateSubmission(ctx, {
        submission: s0,
        project,
        userId: cmd.actor.userId,
        role: access.role,
        change: { data: parsed.data },
        guard: async (trx) => {
          await insertInstance(trx, record(s0.id));
          return true;
        },
        ...(cmd.acceptLanguage ? { acceptLanguage: cmd.acceptLanguage } : {}),
      });
      return { outcome: 'edited', submission: updated ?? s0 };
    }
    const submission = await storeSubmission(ctx, {
      values: { form_version_id: version.id, data: parsed.data, status: 'submitted' },
      photos: body.files,
      access,
      actor: cmd.actor,
      settings,
      afterInsert: (trx, s) => insertInstance(trx, record(s.id)),
      ...(cmd.acceptLanguage ? { acceptLanguage: cmd.acceptLanguage } : {}),
    });
    return { outcome: 'created', submission };
  } catch (err) {
    // The instance was received before (or is being received now): its insert met the key.
    if (!isUniqueViolation(err)) throw err;
    const first = await findInstance(ctx.db, project.id, parsed.instanceId);
    if (!first) throw err;
    return sameOrConflict(first, xmlHash, parsed.instanceId);
  }
}

/** A received instance sent again: the same XML is a success (nothing stored), other XML a 409. */
function sameOrConflict(
  seen: { submission_id: number; xml_sha256: string },
  xmlHash: string,
  instanceId: string,
): OpenRosaReceipt {
  if (seen.xml_sha256 !== xmlHash) throw problems.instanceConflict({ instanceId });
  return { outcome: 'duplicate', submission: { id: Number(seen.submission_id) } };
}
