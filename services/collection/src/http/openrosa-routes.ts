import Joi from 'joi';
import type { Request, Response } from 'express';
import { pathId, pathIdParam, readMultipartBody } from '@fieldhouse/http';
import {
  openRosaForm,
  openRosaFormList,
  openRosaSubmissionCheck,
  receiveOpenRosaSubmission,
  type OpenRosaBody,
} from '../domain/openrosa.ts';
import { problems } from '../domain/problems.ts';
import { route } from './declare.ts';
import {
  formListXml,
  manifestXml,
  openRosaBaseUrl,
  openRosaHeaders,
  openRosaResponseXml,
  sendOpenRosaProblem,
} from './openrosa-xml.ts';
import { projectParams } from './submission-schemas.ts';

/**
 * The OpenRosa 1.0 routes of a project (issue 35; docs/collection.md, "ODK Collect and Enketo"),
 * as ODK Collect and Enketo call them under a server address: `<origin>/api/v1/key/{key}/projects/{id}`
 * for an app user (the gateway takes the key out and forwards `/api/v1/projects/{id}/...`), or
 * `<origin>/api/v1/projects/{id}` signed in (bearer, or HTTP Basic with a personal access token as
 * the password). Every answer carries `X-OpenRosa-Version: 1.0`; refusals to OpenRosa clients
 * (requests with `X-OpenRosa-Version`) are `OpenRosaResponse` documents whose message a collector
 * reads, problem documents to others.
 */

const tags = ['OpenRosa'];
const XML = 'text/xml';
const xmlContent = { [XML]: null };
const problemContent = { [XML]: null };
const projectNotFound = 'Project not found.';

/** `{project_id}/forms/{form_id}`. */
const formParams = Joi.object<{ project_id: number; form_id: string }>({
  project_id: pathIdParam(),
  form_id: Joi.string().max(200).required().description('The OpenRosa formID, `fieldhouse-<project id>`'),
});

const common = {
  401: 'Not signed in, or a revoked app user (`app_user_revoked`)',
  404: 'Unknown project, or not open to the caller',
};

/** Runs `work`; a problem is answered by {@link sendOpenRosaProblem} (XML to OpenRosa clients). */
async function answering(
  req: Request,
  res: Response,
  submission: boolean,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (err) {
    sendOpenRosaProblem(req, res, err, submission);
  }
}

const sendXml = (res: Response, status: number, body: string, submission = false) =>
  void res.status(status).set(openRosaHeaders(submission)).type('text/xml; charset=utf-8').send(body);

/**
 * Reads an OpenRosa submission: `multipart/form-data` with the instance in the part
 * `xml_submission_file` (a file part, as ODK Collect and Enketo send it, or a text field) and the
 * attachments (photos) as file parts, each known by its file name (else its part name).
 * @throws ProblemError 400 `xml_submission_file_missing` (not multipart, or no such part), 400
 *   malformed; 413 the XML (`instance_too_large`) or a photo (`photo_too_large`) over
 *   `PHOTO_MAX_BYTES`, or too many parts.
 */
async function readOpenRosaBody(req: Request, maxFileBytes: number): Promise<OpenRosaBody> {
  if (!req.is('multipart/form-data')) throw problems.submissionXmlMissing();
  const { fields, files } = await readMultipartBody(req, {
    limits: { fileBytes: maxFileBytes, files: 50, fields: 5, fieldBytes: maxFileBytes, parts: 60 },
    fileTooLarge: (name) =>
      name === 'xml_submission_file'
        ? problems.instanceTooLarge({ maxBytes: maxFileBytes })
        : problems.photoTooLarge({ file: name, maxBytes: maxFileBytes }),
  });
  const xmlPart = files.find((f) => f.field === 'xml_submission_file');
  const text = fields.get('xml_submission_file');
  const xml = xmlPart?.data ?? (text !== undefined ? Buffer.from(text, 'utf8') : undefined);
  if (!xml) throw problems.submissionXmlMissing();
  const attachments = new Map<string, Buffer>();
  for (const f of files) if (f !== xmlPart) attachments.set(f.filename || f.field, f.data);
  return { xml, files: attachments };
}

/** The OpenRosa routes (OpenRosa 1.0: Form List API, manifest, Form Submission API). */
export const openRosaRoutes = [
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/formList',
    operationId: 'openRosaFormList',
    summary: 'OpenRosa form list: the project’s form while it collects (ODK Collect, Enketo)',
    description:
      '`<xforms xmlns="http://openrosa.org/xforms/xformsList">` with `formID`, `name`, `version`, `hash` ' +
      '(`md5:` of the XForm), `downloadUrl` and `manifestUrl`. Empty while the project does not collect.',
    tags,
    access: 'optional',
    params: projectParams,
    notFound: projectNotFound,
    responses: { 200: { description: 'The form list', content: xmlContent } },
    problems: common,
    problemContent,
    handler: ({ params }, ctx, req, res) =>
      answering(req, res, false, async () => {
        const projectId = pathId(params.project_id, 'projectId');
        const forms = await openRosaFormList(ctx, { actor: req.caller, projectId });
        sendXml(res, 200, formListXml(forms, openRosaBaseUrl(req, ctx.publicUrl, projectId)));
      }),
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/forms/{form_id}.xml',
    operationId: 'openRosaForm',
    summary: 'The XForm of the project’s current published version (OpenRosa `downloadUrl`)',
    tags,
    access: 'optional',
    params: formParams,
    notFound: projectNotFound,
    responses: { 200: { description: 'The XForm', content: xmlContent } },
    problems: { ...common, 404: 'Unknown project or form, or not open to the caller' },
    problemContent,
    handler: ({ params }, ctx, req, res) =>
      answering(req, res, false, async () => {
        const form = await openRosaForm(ctx, {
          actor: req.caller,
          projectId: pathId(params.project_id, 'projectId'),
          formId: params.form_id,
        });
        sendXml(res, 200, form.xml);
      }),
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/forms/{form_id}/manifest',
    operationId: 'openRosaManifest',
    summary: 'The manifest of the form’s media files (OpenRosa `manifestUrl`): none',
    tags,
    access: 'optional',
    params: formParams,
    notFound: projectNotFound,
    responses: { 200: { description: 'An empty manifest', content: xmlContent } },
    problems: { ...common, 404: 'Unknown project or form, or not open to the caller' },
    problemContent,
    handler: ({ params }, ctx, req, res) =>
      answering(req, res, false, async () => {
        await openRosaForm(ctx, {
          actor: req.caller,
          projectId: pathId(params.project_id, 'projectId'),
          formId: params.form_id,
        });
        sendXml(res, 200, manifestXml());
      }),
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/submission',
    operationId: 'openRosaSubmissionCheck',
    summary: 'HEAD before a submission (OpenRosa): 204 with `X-OpenRosa-Accept-Content-Length`',
    description: 'ODK Collect asks with `HEAD` (Express answers it with this `GET`); 401 asks it to sign in.',
    tags,
    access: 'optional',
    params: projectParams,
    notFound: projectNotFound,
    responses: {
      204: {
        description: 'The caller may submit',
        headers: {
          'X-OpenRosa-Accept-Content-Length': {
            description: 'The largest body to send in one request, in bytes',
            schema: { type: 'integer' },
          },
        },
      },
    },
    problems: {
      ...common,
      403: 'The role may not submit',
      422: 'The project does not collect now (its `code`)',
    },
    problemContent,
    handler: ({ params }, ctx, req, res) =>
      answering(req, res, true, async () => {
        await openRosaSubmissionCheck(ctx, {
          actor: req.caller,
          projectId: pathId(params.project_id, 'projectId'),
        });
        res.status(204).set(openRosaHeaders(true)).end();
      }),
  }),
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/submission',
    operationId: 'openRosaSubmit',
    summary: 'OpenRosa submission: the instance XML and its photos (ODK Collect, Enketo)',
    description:
      'multipart/form-data: `xml_submission_file` and the attachments by file name. 201 stored; 202 the same ' +
      'instance (same `meta/instanceID` and XML) received before, stored once; 409 `instance_conflict` the ' +
      'same instanceID with other XML. An instance with `meta/deprecatedID` edits the submission it names.',
    tags,
    access: 'optional',
    params: projectParams,
    notFound: projectNotFound,
    requestContent: {
      'multipart/form-data': {
        type: 'object',
        required: ['xml_submission_file'],
        properties: { xml_submission_file: { type: 'string', format: 'binary' } },
        additionalProperties: { type: 'string', format: 'binary' },
      },
    },
    responses: {
      201: { description: 'Received and stored (or an edit stored as a new version)', content: xmlContent },
      202: { description: 'Received before: stored once', content: xmlContent },
    },
    problems: {
      ...common,
      400: 'Not multipart, no `xml_submission_file`, or XML that cannot be read (malformed, a DOCTYPE, too deep)',
      403: 'The role may not submit, or an app user sending an edit',
      404: 'Unknown project, or a form or version that is not published in it',
      409: 'The instanceID was received with other XML (`instance_conflict`)',
      413: 'A photo or the XML over the limit, or too many parts',
      422: 'Refused by a publication rule (its `code`) or invalid answers (errors by field)',
    },
    problemContent,
    handler: ({ params }, ctx, req, res) =>
      answering(req, res, true, async () => {
        const receipt = await receiveOpenRosaSubmission(ctx, {
          actor: req.caller,
          projectId: pathId(params.project_id, 'projectId'),
          readBody: () => readOpenRosaBody(req, ctx.photoMaxBytes),
          ...(typeof req.headers['accept-language'] === 'string'
            ? { acceptLanguage: req.headers['accept-language'] }
            : {}),
        });
        const [status, message] =
          receipt.outcome === 'duplicate'
            ? [202, 'This form was received already; it is stored once.']
            : receipt.outcome === 'edited'
              ? [201, 'Your changes to this form were received.']
              : [201, 'Form received.'];
        sendXml(res, status, openRosaResponseXml(message, 'submit_success'), true);
      }),
  }),
];
