import { Router, type Request } from 'express';
import Joi from 'joi';
import { idParam, paginated, parsePageQuery } from '@fieldhouse/http';
import { forbidden, notFound, validate, validationFailed } from '@fieldhouse/problem';
import { can, maySeeSubmission } from '../domain/roles.ts';
import { searchTextOf, type DataEntry } from '../domain/submission-validation.ts';
import { checkTransition, STATUSES, type Actor, type Status } from '../domain/transitions.ts';
import { settingsOf } from '../data/projects.ts';
import { listFields } from '../data/versions.ts';
import { findSubmission, listHistory, submissionJson, updateSubmission } from '../data/submissions.ts';
import { listSubmissions } from '../data/submission-list.ts';
import { projectForCollector, userIdOf } from './access.ts';
import type { CollectionContext } from './context.ts';
import { readMultipart } from './multipart.ts';
import { parseListFilters } from './list-filters.ts';
import { intakePhotos, type PendingPhoto } from './photo-intake.ts';
import {
  assertAccepting,
  checkEntries,
  coords,
  createSubmission,
  photoTransaction,
  storePhotos,
  type PublishedCache,
} from './submission-create.ts';

/** Body of `PUT /projects/{id}/submissions/{id}`: a status change and/or new data. */
const updateSchema = Joi.object({
  status: Joi.string().valid(...STATUSES),
  comment: Joi.string().trim().max(5000).allow('', null),
  data: Joi.array().max(2000),
  ...coords,
}).or('status', 'data', 'latitude', 'longitude', 'altitude', 'precision');

/** The body as JSON or as multipart (a `submission` JSON part plus photo files). */
async function readBody(ctx: CollectionContext, req: Request) {
  if (req.is('multipart/form-data')) return readMultipart(req, ctx.photoMaxBytes);
  return { body: req.body as unknown, files: new Map<string, Buffer>() };
}

/** Submissions (spec 4.1 "Submissions", 2.1 data entries; rules in docs/collection.md). */
export function submissionRoutes(ctx: CollectionContext): Router {
  const r = Router();
  const publishedCache: PublishedCache = new Map();

  /**
   * GET /projects/{id}/submissions?page&per_page&status&date_from&date_to&collector_id&search:
   * pagination envelope, newest first. Collectors only see their own. Bad parameters 422.
   */
  r.get('/api/v1/projects/:projectId/submissions', async (req, res) => {
    const userId = userIdOf(req);
    const { project, role } = await projectForCollector(ctx, req, idParam(req, 'projectId'));
    if (!role) throw notFound('Project not found.');
    const page = parsePageQuery(req.query);
    const filters = parseListFilters(req.query, { convert: true });
    if (!can(role, 'submission.view_all')) {
      if (filters.collector_id !== undefined && filters.collector_id !== userId)
        return res.json(paginated([], page, 0));
      filters.collector_id = userId;
    }
    const { rows, total } = await listSubmissions(ctx.db, project.id, filters, page.page, page.per_page);
    res.json(
      paginated(
        rows.map((s) => submissionJson(s)),
        page,
        total,
      ),
    );
  });

  /**
   * POST /projects/{id}/submissions: JSON body of spec 2.1 or multipart; 201 with the
   * submission. Refusals: unpublished, closed window, limit reached, second submission, missing
   * consent, draft or foreign version, bad entries: 422; photo too large 413; viewer 403.
   */
  r.post('/api/v1/projects/:projectId/submissions', async (req, res) => {
    const { project, role } = await projectForCollector(ctx, req, idParam(req, 'projectId'));
    const collectorId = req.caller.userId;
    // Publication refusals come before the body is read.
    assertAccepting(project, role, req);
    const { body: raw, files } = await readBody(ctx, req);
    const created = await createSubmission(ctx, publishedCache, req, project, role, raw, files);
    const history = [
      {
        id: 0,
        from_status: null,
        to_status: created.status,
        user_id: collectorId,
        comment: null,
        created_at: created.created_at,
      },
    ];
    res.status(201).json({ data: submissionJson(created, history) });
  });

  /** GET /projects/{id}/submissions/{id}: the submission with its status `history`; 404 when not visible. */
  r.get('/api/v1/projects/:projectId/submissions/:submissionId', async (req, res) => {
    const userId = userIdOf(req);
    const { project, role } = await projectForCollector(ctx, req, idParam(req, 'projectId'));
    const s = await findSubmission(ctx.db, project.id, idParam(req, 'submissionId', 'bigint'));
    if (!s || !maySeeSubmission(role, s, userId)) throw notFound('Submission not found.');
    res.json({ data: submissionJson(s, await listHistory(ctx.db, s.id)) });
  });

  /**
   * PUT /projects/{id}/submissions/{id} `{status?, comment?, data?, latitude?...}`: a status
   * change along the transition table (illegal 422 naming current and requested; not the
   * caller's to make 403) and/or new data from its collector (drafts and submissions sent back
   * for correction; submitted ones only with allow_edits).
   */
  r.put('/api/v1/projects/:projectId/submissions/:submissionId', async (req, res) => {
    const userId = userIdOf(req);
    const { project, role } = await projectForCollector(ctx, req, idParam(req, 'projectId'));
    const s0 = await findSubmission(ctx.db, project.id, idParam(req, 'submissionId', 'bigint'));
    if (!s0 || !maySeeSubmission(role, s0, userId)) throw notFound('Submission not found.');
    const body = validate(updateSchema, req.body, { convert: false }) as {
      status?: Status;
      comment?: string | null;
      data?: unknown[];
      latitude?: number | null;
      longitude?: number | null;
      altitude?: number | null;
      precision?: number | null;
    };
    const isCollector = s0.collector_id === userId;
    const actors: Actor[] = [];
    if (isCollector) actors.push('collector');
    if (role && can(role, 'submission.review')) actors.push('reviewer');
    const changesData =
      body.data !== undefined || ['latitude', 'longitude', 'altitude', 'precision'].some((k) => k in body);
    if (changesData) {
      const editable =
        s0.status === 'draft' ||
        s0.status === 'requires_correction' ||
        (s0.status === 'submitted' && settingsOf(project).allow_edits);
      if (!isCollector) throw forbidden('Only the collector of a submission may change its data.');
      if (!editable)
        throw forbidden(
          `The data of a ${s0.status} submission cannot be changed${s0.status === 'submitted' ? ' (this project does not allow edits)' : ''}.`,
          {
            code: 'edits_not_allowed',
          },
        );
    }
    const newStatus = body.status && body.status !== s0.status ? body.status : undefined;
    if (body.status && !newStatus && !changesData)
      throw validationFailed(
        { status: [`The submission is already ${s0.status}.`] },
        { code: 'illegal_transition' },
      );
    if (newStatus && checkTransition(s0.status, newStatus, actors) === 'forbidden')
      throw forbidden(`You may not move this submission from ${s0.status} to ${newStatus}.`);

    let entries: DataEntry[] | undefined;
    let search: string | undefined;
    let photos: PendingPhoto[] = [];
    const finalStatus = newStatus ?? s0.status;
    if (body.data !== undefined || newStatus === 'submitted') {
      const fields = await listFields(ctx.db, s0.form_version_id);
      const kept = new Set(
        s0.data
          .filter((e) => e.type === 'photo' && e.value && typeof e.value === 'object')
          .map((e) => (e.value as { photo_id: string }).photo_id),
      );
      const checked = checkEntries(
        body.data ?? s0.data,
        fields,
        new Map(),
        finalStatus === 'submitted',
        kept,
      );
      if (body.data !== undefined) {
        ({ entries, photos } = await intakePhotos(checked, new Map(), project.id, ctx.photoMaxBytes));
        search = searchTextOf(entries, fields);
      }
    }
    const coordsPatch: Coords = {};
    for (const k of ['latitude', 'longitude', 'altitude', 'precision'] as const)
      if (k in body) coordsPatch[k] = body[k] ?? null;
    const updated = await photoTransaction(ctx, photos, async (trx) => {
      const row = await updateSubmission(trx, s0, {
        ...(newStatus ? { status: newStatus } : {}),
        ...(entries ? { data: entries, search_text: search ?? '' } : {}),
        coords: coordsPatch,
        userId,
        comment: body.comment || null,
      });
      await storePhotos(ctx, trx, s0.id, photos);
      return row;
    });
    res.json({ data: submissionJson(updated, await listHistory(ctx.db, s0.id)) });
  });

  return r;
}

type Coords = Partial<Record<'latitude' | 'longitude' | 'altitude' | 'precision', number | null>>;
