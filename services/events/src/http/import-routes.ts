import { Joi } from '@fieldhouse/config';
import { joiErrors } from '@fieldhouse/problem';
import { NO_EVENT } from '../domain/problems.ts';
import { importInvites, importTemplate, type InviteRowParser } from '../domain/invite-import.ts';
import { sendHeldInvitations } from '../domain/invites.ts';
import { readCsvUpload } from './csv-upload.ts';
import { eventParams } from './event-schemas.ts';
import {
  ImportResult,
  importQuerySchema,
  importRequestContent,
  templateQuerySchema,
} from './import-schemas.ts';
import { createInviteSchema } from './invite-schemas.ts';
import { actorOf, NOT_VISIBLE, route, STAFF_ONLY } from './declare.ts';

const tags = ['Invites'];

/** Validates a CSV row with the invite creation schema (the import use case calls it per row). */
const parseRow: InviteRowParser = (cells) => {
  const { value, error } = createInviteSchema.validate(cells, { abortEarly: false });
  return error ? { errors: joiErrors(error) } : { invite: value };
};

/** Bulk import of invites from CSV, one result per row; its template; the held invitations. */
export const importRoutes = [
  /**
   * POST /api/events/{event_id}/invites/import?preview=&emails=: a CSV as the body (`Content-Type:
   * text/csv`) or as the `file` field of `multipart/form-data`, columns in English, French or by
   * API name. 200 `{preview, emails, created, ready, failed, results: [...]}`. Owner only. 400
   * without a CSV; 413 over 5 MB; 422 when the file as a whole is unusable.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/invites/import',
    operationId: 'importInvites',
    summary:
      'Bulk import from CSV (owner): columns name/nom, email/courriel, type/type_invite and seats/places (optional); one result per row',
    description:
      'Each row is created on its own, so bad rows never fail good ones. `row` is the CSV line number (the ' +
      'header is line 1). Type values in English or French, any case (speaker = intervenant, press = presse, ' +
      'partner = partenaire). `preview=true` stores nothing and says per row what an import would do ' +
      '(`ready` or `failed`). `emails=later` holds the invitation e-mails back (`email_held`) until ' +
      '`POST .../invites/send-held`; `now` (default) queues each with its invite.',
    tags,
    params: eventParams,
    query: importQuerySchema,
    notFound: NO_EVENT,
    requestContent: importRequestContent,
    responses: { 200: { description: 'Per-row results', body: ImportResult } },
    problems: {
      400: 'No CSV in the request, or an unreadable upload',
      403: STAFF_ONLY,
      404: NOT_VISIBLE,
      413: 'CSV over 5 MB',
      422: 'Unusable file: no name or e-mail column, broken quoting, over 5000 rows; or a bad query',
    },
    handler: async ({ params, query }, ctx, req, res) => ({
      body: await importInvites(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        text: await readCsvUpload(req, res),
        parseRow,
        preview: query.preview,
        emails: query.emails,
      }),
    }),
  }),

  /** GET /api/events/{event_id}/invites/import/template?lang=en|fr: the CSV template in that language. Owner. */
  route({
    method: 'get',
    path: '/api/events/{event_id}/invites/import/template',
    operationId: 'getImportTemplate',
    summary: 'The CSV import template, header and example rows in English or French (owner)',
    description:
      'English: `name,email,type,seats`; French: `nom,courriel,type,places`. UTF-8 with BOM, CRLF.',
    tags,
    params: eventParams,
    query: templateQuerySchema,
    notFound: NO_EVENT,
    responses: {
      200: {
        description: 'CSV file (attachment)',
        content: { 'text/csv': null },
        headers: {
          'Content-Disposition': { description: 'attachment; filename=...', schema: { type: 'string' } },
        },
      },
    },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE, 422: 'lang is not en or fr' },
    handler: async ({ params, query }, ctx, req, res) => {
      const { filename, text } = await importTemplate(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        language: query.lang,
      });
      res.type('text/csv; charset=utf-8').attachment(filename).send(text);
    },
  }),

  /** POST /api/events/{event_id}/invites/send-held: 202 `{queued}`, the invitation e-mails held back at import. Owner. */
  route({
    method: 'post',
    path: '/api/events/{event_id}/invites/send-held',
    operationId: 'sendHeldInvitations',
    summary: 'Send the invitation e-mails held back at import (owner)',
    description: 'Each active invite with `email_held` gets its e-mail queued through the outbox, once.',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    responses: {
      202: {
        description: 'Queued',
        body: Joi.object({ queued: Joi.number().integer().min(0).required() }).id('HeldInvitationsQueued'),
      },
    },
    problems: { 403: STAFF_ONLY, 404: NOT_VISIBLE },
    handler: async ({ params }, ctx, req) => ({
      status: 202,
      body: await sendHeldInvitations(ctx, { actor: actorOf(req), eventId: params.event_id }),
    }),
  }),
];
