import { defineProblems, ProblemError, type FieldErrors } from '@fieldhouse/problem';
import type { Action, Role } from './roles.ts';

/**
 * Laravel's 422 sentence for field errors: the first message, then "(and N more errors)" (what
 * `validationFailed` of libs/problem writes), so a client showing only `message` still helps.
 */
function firstError(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const first = all[0] ?? 'The given data was invalid.';
  return more > 0 ? `${first} (and ${more} more error${more > 1 ? 's' : ''})` : first;
}

/** A 422 on one field, as `{ detail, errors }` of a catalogue entry. */
const oneField = (field: string, message: string) => ({
  detail: message,
  errors: (_: void): FieldErrors => ({ [field]: [message] }),
});

/**
 * One refusal of an XLSForm workbook (issue 35): the cell as pyxform names it and why.
 * `row` is 1-based as the spreadsheet shows it; `column` the header as written.
 */
export interface XlsFormIssue {
  /** `<sheet>.<row>.<column>`, `<sheet>.<row>`, `<sheet>` or `file`. */
  key: string;
  sheet: string | null;
  row: number | null;
  column: string | null;
  /** What is wrong, a code clients translate (docs/collection.md, "XLSForm"). */
  reason: string;
  /** The values the reason names (`type`, `name`, `list`, `limit`, `position`...). */
  values: Record<string, string | number>;
  /** The English sentence. */
  message: string;
}

/** The `errors` of an XLSForm refusal: messages by cell key. */
function xlsformErrors(issues: readonly XlsFormIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const i of issues) (errors[i.key] ??= []).push(i.message);
  return errors;
}

/** The `detail` of a 404 by what was not found (unknown and not visible look the same). */
export const NOT_FOUND_DETAIL = {
  workspace: 'Workspace not found.',
  project: 'Project not found.',
  version: 'Form version not found.',
  field: 'Field not found.',
  submission: 'Submission not found.',
  photo: 'Photo not found.',
  export: 'Export not found.',
  analysis: 'Analysis not found.',
  chart: 'Chart not found.',
  member: 'This user is not a member of the workspace.',
  invitation: 'No open invitation with this id in the workspace.',
  app_user: 'No app user with this id in the project.',
  form: 'No form with this id and version is open for collection in this project.',
  route: 'No route has this address.',
} as const;

/** What a 403 `forbidden` refuses (each its English sentence). */
type ForbiddenReason =
  /** The role lacks the permission (domain/roles.ts). */
  | { reason: 'role'; role: Role; action: Action }
  /** A role (or none: a non-member the project does not let in) that may not submit. */
  | { reason: 'submit'; role: Role | null }
  /** Granting, changing or removing the owner role without being an owner. */
  | { reason: 'owner_only' }
  /** Deleting a submission without `submission.delete`. */
  | { reason: 'delete_submission' }
  /** Changing the data of another collector's draft. */
  | { reason: 'draft_of_another' }
  /** Changing the data of a submission as neither its collector nor a reviewer. */
  | { reason: 'not_collector' }
  /** A status change that exists but that the caller may not make. */
  | { reason: 'transition'; from: string; to: string }
  /** An app user asking for anything but its project's published form and submitting to it. */
  | { reason: 'app_user' }
  /** An app user sending an edit (`deprecatedID`) of a submission. */
  | { reason: 'app_user_edit' };

function forbiddenDetail(p: ForbiddenReason): string {
  switch (p.reason) {
    case 'role':
      return `Your role in this workspace (${p.role}) does not allow this action (${p.action}).`;
    case 'submit':
      return `Your role in this workspace (${p.role}) may not submit data.`;
    case 'owner_only':
      return 'Only an owner may grant, change or remove the owner role.';
    case 'delete_submission':
      return 'Only owners, admins and managers of the workspace can delete submissions.';
    case 'draft_of_another':
      return 'A draft can be changed only by its collector until it is sent.';
    case 'not_collector':
      return 'Only the collector of a submission or a reviewer may change its data.';
    case 'transition':
      return `You may not move this submission from ${p.from} to ${p.to}.`;
    case 'app_user':
      return 'An app user may only download its project’s form and send submissions to it.';
    case 'app_user_edit':
      return 'An app user cannot edit a sent submission; ask a project manager to correct it.';
  }
}

/**
 * Every problem type the collection service answers (docs/problem-types.md is generated from
 * it: `npm run docs:problems`). Use cases refuse only by throwing these; the kind becomes the
 * HTTP status at the edge (libs/problem `KIND_STATUS`).
 */
const catalogue = defineProblems({
  /** 401: an anonymous caller where a signed-in one is needed. */
  unauthenticated: { kind: 'unauthenticated', code: 'unauthenticated', detail: 'Unauthenticated.' },
  /**
   * 401: an app user's key that was revoked (docs/collection.md, "ODK Collect and Enketo"):
   * checked on every request, so a revocation works on the next one.
   */
  appUserRevoked: {
    kind: 'unauthenticated',
    code: 'app_user_revoked',
    detail: 'This app user was revoked: ask your project manager for a new QR code or server address.',
  },
  /**
   * 409: an OpenRosa submission whose `meta/instanceID` is stored already with other XML, and
   * that names no submission it edits (`deprecatedID`).
   */
  instanceConflict: {
    kind: 'conflict',
    code: 'instance_conflict',
    detail: (p: { instanceId: string }) =>
      `A different submission with the instance ID ${p.instanceId} was already received; this one was not stored.`,
  },
  /**
   * 400: an OpenRosa submission that is not `multipart/form-data` or has no
   * `xml_submission_file` part (the OpenRosa Form Submission API's body).
   */
  submissionXmlMissing: {
    kind: 'bad_request',
    code: 'xml_submission_file_missing',
    detail:
      'An OpenRosa submission is a multipart/form-data body whose xml_submission_file part holds the instance.',
  },
  /** 404: unknown, or the caller may not know it exists. */
  notFound: {
    kind: 'not_found',
    code: 'not_found',
    detail: (p: { resource: keyof typeof NOT_FOUND_DETAIL }) => NOT_FOUND_DETAIL[p.resource],
  },
  /** 403: the caller may see the resource but not do this. */
  forbidden: { kind: 'forbidden', code: 'forbidden', detail: (p: ForbiddenReason) => forbiddenDetail(p) },
  /** 422: fields that break their rules (Laravel's `errors`). */
  validationFailed: {
    kind: 'invalid',
    code: 'validation_failed',
    detail: (p: { errors: FieldErrors }) => firstError(p.errors),
    errors: (p: { errors: FieldErrors }) => p.errors,
  },
  /**
   * 422: an expression of a form (form model of issue 34) that does not compile: a syntax error,
   * an unknown `${name}` or function, a wrong number of arguments, a cycle of calculations; each
   * error keyed by the property (`relevant`...) on a field's save, `fields.<name>.<property>` on
   * publishing, its message naming the position.
   */
  expressionInvalid: {
    kind: 'invalid',
    code: 'expression_invalid',
    detail: (p: { errors: FieldErrors }) => firstError(p.errors),
    errors: (p: { errors: FieldErrors }) => p.errors,
  },
  /**
   * 413: an XForm instance (an OpenRosa `xml_submission_file`) larger than the limit
   * (domain/xform-instance.ts `INSTANCE_LIMITS`, issue 35); nothing of it is read.
   */
  instanceTooLarge: {
    kind: 'too_large',
    code: 'instance_too_large',
    detail: (p: { maxBytes: number }) =>
      `This submission's XML is larger than ${p.maxBytes} bytes, the most Fieldhouse takes.`,
    extensions: (p: { maxBytes: number }) => ({ max_bytes: p.maxBytes }),
  },
  /**
   * 400: an XForm instance that is not XML Fieldhouse reads (issue 35): not well-formed, a
   * DOCTYPE (DTDs, external entities and entity expansion are refused), elements nested too
   * deep, too many elements, a value too long; `line` and `column` where reading stopped.
   */
  instanceUnreadable: {
    kind: 'bad_request',
    code: 'instance_unreadable',
    detail: (p: { reason: string; line: number; column: number }) =>
      `This submission's XML cannot be read (line ${p.line}, column ${p.column}): ${p.reason}.`,
    extensions: (p: { reason: string; line: number; column: number }) => ({ line: p.line, column: p.column }),
  },
  /**
   * 422: an XForm instance that does not fit its form (issue 35): another root, form id or
   * version, a missing or malformed `meta/instanceID`, an element the form does not have there,
   * a value not of its field's type; `errors` keyed by the element's path
   * (`/data/member[2]/age`).
   */
  instanceInvalid: {
    kind: 'invalid',
    code: 'instance_invalid',
    detail: (p: { errors: FieldErrors }) => firstError(p.errors),
    errors: (p: { errors: FieldErrors }) => p.errors,
  },
  /** 400: a multipart create without its `submission` part. */
  submissionPartMissing: {
    kind: 'bad_request',
    code: 'bad_request',
    detail: 'The multipart body needs a "submission" part with the JSON body.',
  },
  /** 400: the `submission` part of a multipart create is not JSON. */
  invalidJson: {
    kind: 'bad_request',
    code: 'invalid_json',
    detail: 'The "submission" part is not valid JSON.',
  },
  /** 413: a photo above `PHOTO_MAX_BYTES` (a multipart file by name, or a base64 entry by index). */
  photoTooLarge: {
    kind: 'too_large',
    code: 'photo_too_large',
    detail: (p: { file: string; maxBytes: number } | { index: number; maxBytes: number }) =>
      'file' in p
        ? `The file ${p.file} is larger than the photo limit of ${p.maxBytes} bytes.`
        : `The photo at data.${p.index} is larger than the limit of ${p.maxBytes} bytes.`,
  },
  /** 413: a `POST /sync` batch of more than `maxItems` items. */
  syncBatchTooLarge: {
    kind: 'too_large',
    code: 'sync_batch_too_large',
    detail: (p: { items: number; maxItems: number }) =>
      `A sync batch holds at most ${p.maxItems} items (got ${p.items}); send the rest in another batch.`,
    extensions: (p: { items: number; maxItems: number }) => ({ max_items: p.maxItems }),
  },
  /** 422: submitting to an unpublished project. */
  projectNotPublished: {
    kind: 'invalid',
    code: 'project_not_published',
    ...oneField('project', 'This project is not published: it accepts no submissions.'),
  },
  /** 422: before the project's `collect_starts_at` (spec 2.1). */
  collectionNotStarted: {
    kind: 'invalid',
    code: 'collection_not_started',
    detail: (p: { startsAt: string }) => `Collection for this project opens at ${p.startsAt}.`,
    errors: (p: { startsAt: string }) => ({
      project: [`Collection for this project opens at ${p.startsAt}.`],
    }),
  },
  /** 422: at or after the project's `collect_expires_at` (spec 2.1). */
  collectionEnded: {
    kind: 'invalid',
    code: 'collection_ended',
    detail: (p: { expiresAt: string }) => `Collection for this project closed at ${p.expiresAt}.`,
    errors: (p: { expiresAt: string }) => ({
      project: [`Collection for this project closed at ${p.expiresAt}.`],
    }),
  },
  /** 422: a project requiring consent, without `"consent": true`. */
  consentRequired: {
    kind: 'invalid',
    code: 'consent_required',
    ...oneField('consent', 'This project requires consent: send "consent": true after showing consent_text.'),
  },
  /** 422: the project's `submission_limit` is reached. */
  submissionLimitReached: {
    kind: 'invalid',
    code: 'submission_limit_reached',
    detail: (p: { limit: number }) => `This project has reached its submission limit (${p.limit}).`,
    errors: (p: { limit: number }) => ({
      project: [`This project has reached its submission limit (${p.limit}).`],
    }),
  },
  /** 422: a second submission where the project takes one per collector. */
  alreadySubmitted: {
    kind: 'invalid',
    code: 'already_submitted',
    ...oneField(
      'project',
      'This project accepts one submission per collector, and you have already submitted.',
    ),
  },
  /**
   * 422: a status change the transition table does not have (`from` equal to `to`: already in
   * that status), with `current_status` and `requested_status`.
   */
  illegalTransition: {
    kind: 'invalid',
    code: 'illegal_transition',
    detail: (p: { from: string; to: string }) => transitionMessage(p),
    errors: (p: { from: string; to: string }) => ({ status: [transitionMessage(p)] }),
    extensions: (p: { from: string; to: string }) => ({ current_status: p.from, requested_status: p.to }),
  },
  /** 403: changing the data of a submission that may no longer be edited. */
  editsNotAllowed: {
    kind: 'forbidden',
    code: 'edits_not_allowed',
    detail: (p: { status: string }) =>
      `The data of a ${p.status} submission cannot be changed${p.status === 'submitted' ? ' (this project does not allow edits)' : ''}.`,
  },
  /** 422 (an item of `POST /sync`): its submission was deleted. */
  syncItemGone: {
    kind: 'invalid',
    code: 'gone',
    ...oneField('local_id', 'The submission of this item no longer exists.'),
  },
  /** 422 (an item of `POST /sync`): its form version is unknown or not open to the caller. */
  unknownFormVersion: {
    kind: 'invalid',
    code: 'unknown_form_version',
    ...oneField('form_version_id', 'Unknown form version.'),
  },
  /** 409 (an item of `POST /sync`, `conflict`): the server holds a newer version of the item. */
  staleItem: {
    kind: 'conflict',
    code: 'stale_item',
    detail: 'The server holds a newer version of this item.',
  },
  /** 409: a change to a published (frozen) form version. */
  versionFrozen: {
    kind: 'conflict',
    code: 'version_frozen',
    detail: (p: { number: number }) =>
      `Form version ${p.number} is published and frozen: its fields cannot change. Create a new version (copy_last_published: true) instead.`,
  },
  /** 409: publishing a version that is already published. */
  versionPublished: {
    kind: 'conflict',
    code: 'version_published',
    detail: (p: { number: number }) => `Form version ${p.number} is already published.`,
  },
  /** 422: two fields of one version with the same name. */
  duplicateName: {
    kind: 'invalid',
    code: 'duplicate_name',
    ...oneField('name', 'Another field of this version already has this name.'),
  },
  /** 422: publishing a project without a published form version. */
  noPublishedVersion: {
    kind: 'invalid',
    code: 'no_published_version',
    ...oneField('project', 'This project has no published form version; publish a version first.'),
  },
  /** 422: adding a member who is not a registered user (by `user_id` or `email`). */
  unknownUser: {
    kind: 'invalid',
    code: 'unknown_user',
    detail: (p: { field: 'user_id' | 'email' }) => unknownUserMessage(p.field),
    errors: (p: { field: 'user_id' | 'email' }) => ({ [p.field]: [unknownUserMessage(p.field)] }),
  },
  /** 422: demoting (`role`) or removing (`user_id`) the last owner of a workspace. */
  lastOwner: {
    kind: 'invalid',
    code: 'last_owner',
    detail: (p: { field: 'role' | 'user_id' }) => lastOwnerMessage(p.field),
    errors: (p: { field: 'role' | 'user_id' }) => ({ [p.field]: [lastOwnerMessage(p.field)] }),
  },
  /** 422: inviting a member (`listed`: seen in the member list; else found so while adding). */
  alreadyMember: {
    kind: 'invalid',
    code: 'already_member',
    detail: (p: { listed: boolean }) => alreadyMemberMessage(p.listed),
    errors: (p: { listed: boolean }) => ({ email: [alreadyMemberMessage(p.listed)] }),
  },
  /** 409: downloading an export that is not completed. */
  exportNotReady: {
    kind: 'conflict',
    code: 'export_not_ready',
    detail: (p: { status: string }) => `This export is ${p.status}; it has no file to download.`,
  },
  /** 410: downloading an export whose file expired or was deleted. */
  exportExpired: {
    kind: 'gone',
    code: 'export_expired',
    detail: 'This export has expired; request a new one.',
  },
  /**
   * 422: the projects a webhook would take events from already have `limit` webhooks each
   * (`WEBHOOK_MAX_SUBSCRIPTIONS`; docs/webhooks.md, "Isolation"). No `errors`.
   */
  webhookLimitReached: {
    kind: 'invalid',
    code: 'webhook_limit_reached',
    detail: (p: { limit: number }) =>
      `A project this webhook would take events from already has ${p.limit} webhooks (those for the whole workspace included), the most one project may have: delete one, or limit this one to other projects.`,
    extensions: (p: { limit: number }) => ({ limit: p.limit }),
  },
  /**
   * 422: an XLSForm workbook that cannot be taken (issue 35; docs/collection.md, "XLSForm"):
   * `errors` keyed by cell as pyxform names one, `<sheet>.<row>.<column>` (`survey.12.relevant`;
   * `survey.1.<column>` for a column, `file` for the workbook as a whole), and `xlsform_errors` the
   * same refusals with their `reason` code and `values`, for a client to word in its language.
   */
  xlsformInvalid: {
    kind: 'invalid',
    code: 'xlsform_invalid',
    detail: (p: { issues: readonly XlsFormIssue[] }) =>
      `This XLSForm cannot be taken: ${firstError(xlsformErrors(p.issues))}`,
    errors: (p: { issues: readonly XlsFormIssue[] }) => xlsformErrors(p.issues),
    extensions: (p: { issues: readonly XlsFormIssue[] }) => ({ xlsform_errors: p.issues }),
  },
  /** 413: an XLSForm file, or what it unpacks to, larger than the limit (issue 35). */
  xlsformTooLarge: {
    kind: 'too_large',
    code: 'xlsform_too_large',
    detail: (p: { maxBytes: number; unpacked: boolean }) =>
      p.unpacked
        ? `This workbook unpacks to more than ${p.maxBytes} bytes, the most an XLSForm may hold.`
        : `This file is larger than ${p.maxBytes} bytes, the most an XLSForm may be.`,
    extensions: (p: { maxBytes: number; unpacked: boolean }) => ({ max_bytes: p.maxBytes }),
  },
});

/**
 * `no_published_version` is answered with two statuses: 422 publishing a project (above) and
 * 404 reading its current form. A catalogue takes a code once, so the 404 is kept apart.
 */
const currentForm = defineProblems({
  /** 404: the project has no published form version to read. */
  noCurrentVersion: {
    kind: 'not_found',
    code: 'no_published_version',
    detail: 'The project has no published form version.',
  },
});

/** The collection service's problem catalogue: `throw problems.versionFrozen({ number })`. */
export const problems = { ...catalogue, ...currentForm };

/**
 * An item of `POST /sync` that failed for a reason of the server's (its result, never an HTTP
 * answer: the batch goes on); `item_failed` with the status 500 it reports.
 */
export const syncItemFailed = (): ProblemError =>
  new ProblemError(500, 'This item could not be stored; send it again.', { code: 'item_failed' });

function transitionMessage(p: { from: string; to: string }): string {
  return p.from === p.to
    ? `The submission is already ${p.from}.`
    : `A submission cannot go from status ${p.from} to ${p.to}.`;
}

function unknownUserMessage(field: 'user_id' | 'email'): string {
  return 'No registered user has this ' + (field === 'user_id' ? 'id.' : 'e-mail address.');
}

function lastOwnerMessage(field: 'role' | 'user_id'): string {
  return field === 'role'
    ? 'The last owner of a workspace cannot be demoted; make another member owner first.'
    : 'The last owner of a workspace cannot be removed; make another member owner first.';
}

function alreadyMemberMessage(listed: boolean): string {
  return listed
    ? 'This person is already a member of the workspace; change their role in the list instead.'
    : 'This person is already a member of the workspace.';
}
