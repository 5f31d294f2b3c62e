import { Router } from 'express';
import Joi from 'joi';
import { idParam, paginated, parsePageQuery } from '@fieldhouse/http';
import { conflict, notFound, validate, validationFailed } from '@fieldhouse/problem';
import { fieldCreateSchema, fieldShapeErrors, fieldUpdateSchema } from '../domain/field-definition.ts';
import { SELECT_TYPES } from '../domain/fields.ts';
import {
  countFields,
  createVersion,
  deleteField,
  fieldJson,
  findField,
  insertField,
  lastPublishedVersion,
  listFields,
  listVersions,
  publishVersion,
  updateField,
  versionJson,
  type FieldInput,
  type VersionRow,
} from '../data/versions.ts';
import { projectFor, versionFor } from './access.ts';
import type { CollectionContext } from './context.ts';

const versionBody = Joi.object({ copy_last_published: Joi.boolean().default(false) });

/** 409 for any change to a published (frozen) version. */
function assertDraft(v: VersionRow): void {
  if (v.status !== 'draft')
    throw conflict(
      `Form version ${v.number} is published and frozen: its fields cannot change. Create a new version (copy_last_published: true) instead.`,
      { code: 'version_frozen' },
    );
}

/** A duplicate field name in a version (unique index) as a 422 on `name`. */
async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw validationFailed(
        { name: ['Another field of this version already has this name.'] },
        { code: 'duplicate_name' },
      );
    throw err;
  }
}

/** Form versions and fields (spec 4.1 "Versions and fields"). */
export function versionRoutes(ctx: CollectionContext): Router {
  const r = Router();

  /** GET /projects/{id}/versions: pagination envelope, newest version first, with `field_count`. */
  r.get('/api/v1/projects/:projectId/versions', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'workspace.view');
    const page = parsePageQuery(req.query);
    const { rows, total } = await listVersions(ctx.db, project.id, page.page, page.per_page);
    res.json(
      paginated(
        rows.map((v) => versionJson(v, v.field_count)),
        page,
        total,
      ),
    );
  });

  /**
   * POST /projects/{id}/versions `{copy_last_published?}`: 201 with a new draft; with
   * `copy_last_published: true` it starts with the fields of the last published version (422
   * when there is none).
   */
  r.post('/api/v1/projects/:projectId/versions', async (req, res) => {
    const { project } = await projectFor(ctx, req, idParam(req, 'projectId'), 'form.edit');
    const body = validate(versionBody, req.body) as { copy_last_published: boolean };
    let copyFrom: number | null = null;
    if (body.copy_last_published) {
      const last = await lastPublishedVersion(ctx.db, project.id);
      if (!last)
        throw validationFailed({ copy_last_published: ['This project has no published version to copy.'] });
      copyFrom = last.id;
    }
    const v = await createVersion(ctx.db, project.id, copyFrom);
    res.status(201).json({ data: versionJson(v, await countFields(ctx.db, v.id)) });
  });

  /** GET /versions/{id}: the version with its fields. */
  r.get('/api/v1/versions/:versionId', async (req, res) => {
    const { version } = await versionFor(ctx, req, idParam(req, 'versionId'), 'workspace.view');
    const fields = await listFields(ctx.db, version.id);
    res.json({ data: { ...versionJson(version, fields.length), fields: fields.map(fieldJson) } });
  });

  /** GET /versions/{id}/fields: pagination envelope in form order (per_page up to 100). */
  r.get('/api/v1/versions/:versionId/fields', async (req, res) => {
    const { version } = await versionFor(ctx, req, idParam(req, 'versionId'), 'workspace.view');
    const page = parsePageQuery(req.query);
    const all = await listFields(ctx.db, version.id);
    const slice = all.slice((page.page - 1) * page.per_page, page.page * page.per_page);
    res.json(paginated(slice.map(fieldJson), page, all.length));
  });

  /** POST /versions/{id}/fields `{name, label, type, required?, choices?, constraints?}`: 201; drafts only (409). */
  r.post('/api/v1/versions/:versionId/fields', async (req, res) => {
    const { version } = await versionFor(ctx, req, idParam(req, 'versionId'), 'form.edit');
    assertDraft(version);
    const body = validate(fieldCreateSchema, req.body) as FieldInput;
    const errors = fieldShapeErrors(body);
    if (Object.keys(errors).length) throw validationFailed(errors);
    const input = { ...body, choices: body.choices?.length ? body.choices : null };
    const f = await uniqueName(() => insertField(ctx.db, version.id, input));
    res.status(201).json({ data: fieldJson(f) });
  });

  /** PUT /versions/{id}/fields/{field_id}: partial update (uuid unchanged); drafts only (409). */
  r.put('/api/v1/versions/:versionId/fields/:fieldId', async (req, res) => {
    const { version } = await versionFor(ctx, req, idParam(req, 'versionId'), 'form.edit');
    const field = await findField(ctx.db, version.id, idParam(req, 'fieldId'));
    if (!field) throw notFound('Field not found.');
    assertDraft(version);
    const body = validate(fieldUpdateSchema, req.body) as Partial<FieldInput>;
    const merged = { ...field, ...body };
    const errors = fieldShapeErrors(merged);
    if (Object.keys(errors).length) throw validationFailed(errors);
    if (body.type && !SELECT_TYPES.includes(body.type)) body.choices = null;
    const f = await uniqueName(() => updateField(ctx.db, field.id, body));
    res.json({ data: fieldJson(f) });
  });

  /** DELETE /versions/{id}/fields/{field_id}: 204; drafts only (409). */
  r.delete('/api/v1/versions/:versionId/fields/:fieldId', async (req, res) => {
    const { version } = await versionFor(ctx, req, idParam(req, 'versionId'), 'form.edit');
    const field = await findField(ctx.db, version.id, idParam(req, 'fieldId'));
    if (!field) throw notFound('Field not found.');
    assertDraft(version);
    await deleteField(ctx.db, field.id);
    res.status(204).end();
  });

  /**
   * POST /versions/{id}/publish: freezes the draft and makes it the project's current version
   * (the one collectors get); 200 with the version; already published 409; no fields 422.
   */
  r.post('/api/v1/versions/:versionId/publish', async (req, res) => {
    const { version } = await versionFor(ctx, req, idParam(req, 'versionId'), 'form.edit');
    if (version.status !== 'draft')
      throw conflict(`Form version ${version.number} is already published.`, { code: 'version_published' });
    const n = await countFields(ctx.db, version.id);
    if (!n) throw validationFailed({ fields: ['A version needs at least one field to be published.'] });
    const v = await publishVersion(ctx.db, version);
    res.json({ data: versionJson(v, n) });
  });

  return r;
}
