import { paginated, pageOf, pathId } from '@fieldhouse/http';
import {
  addField,
  changeField,
  changeVersionLanguages,
  createFormVersion,
  getCurrentFormVersion,
  getFormVersion,
  listFormVersions,
  listVersionFields,
  publishFormVersion,
  removeField,
} from '../domain/versions.ts';
import { envelope, pageQuery } from './common-schemas.ts';
import { projectParams } from './project-schemas.ts';
import { route } from './declare.ts';
import { readXlsFormUpload, xlsformRoutes, xlsformUploadContent } from './xlsform-routes.ts';
import {
  fieldBody,
  fieldParams,
  fieldPatch,
  fieldSchema,
  versionBody,
  versionLanguagesBody,
  versionParams,
  versionSchema,
  versionWithFieldsSchema,
} from './version-schemas.ts';

const tags = ['Form versions'];
const memberOnly = 'Unknown, or the caller is not a member';
const frozen = 'The version is published and frozen (version_frozen)';
const write = {
  403: 'The role does not allow it',
  404: memberOnly,
  422: 'Validation failed (errors by field)',
};

/** Form versions and their fields (spec 4.1 "Versions and fields"). */
export const versionRoutes = [
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/versions',
    operationId: 'listFormVersions',
    summary: 'Form versions, newest first',
    description: 'Pagination envelope, each version with its `field_count`.',
    tags,
    params: projectParams,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(versionSchema) } },
    problems: { 404: memberOnly, 422: 'Bad page or per_page' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listFormVersions(ctx, req.caller, {
        projectId: pathId(params.project_id, 'projectId'),
        page: readQuery,
      });
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/versions/current',
    operationId: 'getCurrentFormVersion',
    summary: 'The published version collectors fill, with its fields',
    description:
      'The project’s `current_version_id` version, as `GET /api/v1/versions/{version_id}` gives it, for the ' +
      'callers who may read the project (members, and the non-members its `collect_access` admits): a web ' +
      'form fetches it beside the project rather than after it. An addition to the spec (docs/collection.md).',
    tags,
    params: projectParams,
    access: 'optional',
    responses: { 200: { description: 'The current version', body: envelope(versionWithFieldsSchema) } },
    problems: {
      401: 'Anonymous, and the form is not open to the public',
      404: 'Unknown project, the caller may not read it, or no version was published (`no_published_version`)',
    },
    handler: async ({ params }, ctx, req) => ({
      body: {
        data: await getCurrentFormVersion(ctx, req.caller, pathId(params.project_id, 'projectId')),
      },
    }),
  }),
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/versions',
    operationId: 'createFormVersion',
    summary: 'New draft version, optionally a copy of the last published one, or from an XLSForm',
    description:
      'With `copy_last_published: true` the draft starts with the fields of the last published version (422 when there is none). ' +
      'As `multipart/form-data` with an `.xlsx` XLSForm in the part `xlsform` (issue 35), the draft is created with the ' +
      'workbook’s fields, languages and choices; a workbook that cannot be taken is 422 `xlsform_invalid` whose `errors` ' +
      'name each cell as `<sheet>.<row>.<column>` (`survey.12.relevant`) and whose `xlsform_errors` give each refusal’s ' +
      '`reason` (docs/collection.md, "XLSForm"); a file over the limit 413 `xlsform_too_large`.',
    tags,
    params: projectParams,
    body: versionBody,
    parseBody: 'by-use-case',
    bodyRequired: false,
    requestContent: { 'multipart/form-data': xlsformUploadContent },
    responses: { 201: { description: 'Created', body: envelope(versionSchema) } },
    problems: {
      ...write,
      400: 'A malformed multipart body',
      413: 'An XLSForm larger than the limit, or unpacking to more (`xlsform_too_large`)',
      422: 'Validation failed (errors by field), or an XLSForm that cannot be taken (`xlsform_invalid`, errors by cell)',
    },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: {
        data: await createFormVersion(ctx, req.caller, {
          projectId: pathId(params.project_id, 'projectId'),
          // An XLSForm is read and translated after the access check, as a JSON body is.
          input: req.is('multipart/form-data') ? () => readXlsFormUpload(req) : readBody,
        }),
      },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/versions/{version_id}',
    operationId: 'getFormVersion',
    summary: 'Version with its fields',
    description: 'Published versions are also open to non-members when the project’s form is open to them.',
    tags,
    params: versionParams,
    access: 'optional',
    responses: { 200: { description: 'The version', body: envelope(versionWithFieldsSchema) } },
    problems: { 404: memberOnly },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await getFormVersion(ctx, req.caller, pathId(params.version_id, 'versionId')) },
    }),
  }),
  route({
    method: 'put',
    path: '/api/v1/versions/{version_id}',
    operationId: 'updateFormVersion',
    summary: 'Set a draft’s languages (drafts only)',
    description:
      '`{languages, default_language}` (form model of issue 34): BCP 47 codes, at most 20, `default_language` one ' +
      'of them (the first when absent); texts of fields may then be given per language. A published version: 409.',
    tags,
    params: versionParams,
    body: versionLanguagesBody,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The version', body: envelope(versionSchema) } },
    problems: { ...write, 409: frozen },
    handler: async ({ params, readBody }, ctx, req) => ({
      body: {
        data: await changeVersionLanguages(ctx, req.caller, {
          versionId: pathId(params.version_id, 'versionId'),
          input: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'get',
    path: '/api/v1/versions/{version_id}/fields',
    operationId: 'listVersionFields',
    summary: 'Fields in form order',
    description: 'Pagination envelope (per_page up to 100).',
    tags,
    params: versionParams,
    access: 'optional',
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(fieldSchema) } },
    problems: { 404: memberOnly, 422: 'Bad page or per_page' },
    handler: async ({ params, readQuery }, ctx, req) => {
      const { items, total } = await listVersionFields(ctx, req.caller, {
        versionId: pathId(params.version_id, 'versionId'),
        page: readQuery,
      });
      return { body: paginated(items, readQuery(), total) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/versions/{version_id}/fields',
    operationId: 'addField',
    summary: 'Add a field (drafts only: 409 otherwise)',
    description:
      'Choices for (and only for) select types; `min`/`max` for integer and decimal; `max_length`/`pattern` for text. A duplicate name is 422 `duplicate_name`. ' +
      'Form model (docs/collection.md): `group`, `repeat`, `note`, `calculate`; `parent`; logic properties whose expressions ' +
      'are compiled here (an error: 422 `expression_invalid` keyed by the property, naming the position); texts plain or per language.',
    tags,
    params: versionParams,
    body: fieldBody,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created', body: envelope(fieldSchema) } },
    problems: { ...write, 409: frozen },
    handler: async ({ params, readBody }, ctx, req) => ({
      status: 201,
      body: {
        data: await addField(ctx, req.caller, {
          versionId: pathId(params.version_id, 'versionId'),
          field: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'put',
    path: '/api/v1/versions/{version_id}/fields/{field_id}',
    operationId: 'updateField',
    summary: 'Update a field (drafts only)',
    description: 'Partial update; the field keeps its uuid.',
    tags,
    params: fieldParams,
    body: fieldPatch,
    parseBody: 'by-use-case',
    responses: { 200: { description: 'The updated field', body: envelope(fieldSchema) } },
    problems: { ...write, 409: frozen },
    handler: async ({ params, readBody }, ctx, req) => ({
      body: {
        data: await changeField(ctx, req.caller, {
          versionId: pathId(params.version_id, 'versionId'),
          fieldId: pathId(params.field_id, 'fieldId'),
          patch: readBody,
        }),
      },
    }),
  }),
  route({
    method: 'delete',
    path: '/api/v1/versions/{version_id}/fields/{field_id}',
    operationId: 'deleteField',
    summary: 'Delete a field (drafts only)',
    tags,
    params: fieldParams,
    responses: { 204: { description: 'Deleted' } },
    problems: { 403: 'The role does not allow it', 404: memberOnly, 409: frozen },
    handler: async ({ params }, ctx, req) => {
      await removeField(ctx, req.caller, {
        versionId: pathId(params.version_id, 'versionId'),
        fieldId: pathId(params.field_id, 'fieldId'),
      });
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/versions/{version_id}/publish',
    operationId: 'publishFormVersion',
    summary: 'Publish (freeze) a version; it becomes the current form',
    description:
      'Already published 409 `version_published`; a version without fields 422; a form whose expressions do not ' +
      'compile as a whole (a field referenced but deleted since, a cycle) 422 `expression_invalid` keyed `fields.<name>.<property>`.',
    tags,
    params: versionParams,
    responses: { 200: { description: 'The published version', body: envelope(versionSchema) } },
    problems: { ...write, 409: 'Already published (version_published)' },
    handler: async ({ params }, ctx, req) => ({
      body: { data: await publishFormVersion(ctx, req.caller, pathId(params.version_id, 'versionId')) },
    }),
  }),
  ...xlsformRoutes,
];
