import { joiErrors } from '@fieldhouse/problem';
import { NO_EVENT } from '../domain/problems.ts';
import { importInvites, type InviteRowParser } from '../domain/invite-import.ts';
import { readCsvUpload } from './csv-upload.ts';
import { eventParams } from './event-schemas.ts';
import { ImportResult, importRequestContent } from './import-schemas.ts';
import { createInviteSchema } from './invite-schemas.ts';
import { actorOf, NOT_VISIBLE, route, STAFF_ONLY } from './declare.ts';

const tags = ['Invites'];

/** Validates a CSV row with the invite creation schema (the import use case calls it per row). */
const parseRow: InviteRowParser = (cells) => {
  const { value, error } = createInviteSchema.validate(cells, { abortEarly: false });
  return error ? { errors: joiErrors(error) } : { invite: value };
};

/** Bulk import of invites from CSV, one result per row. */
export const importRoutes = [
  /**
   * POST /api/events/{event_id}/invites/import: a CSV as the body (`Content-Type: text/csv`) or
   * as the `file` field of `multipart/form-data`, columns `nom`, `email`, `type_invite` (optional).
   * 200 `{created, failed, results: [{row, status: "created", id, nom, code_unique} |
   * {row, status: "failed", errors: {field: [message]}}]}`. Owner only. 400 without a CSV; 413
   * over 5 MB; 422 when the file as a whole is unusable.
   */
  route({
    method: 'post',
    path: '/api/events/{event_id}/invites/import',
    operationId: 'importInvites',
    summary:
      'Bulk import from CSV (owner): columns nom, email, type_invite (optional); `,` or `;`; one result per row',
    description:
      'Each row is created on its own with its invitation e-mail, so bad rows never fail good ones. ' +
      '`row` is the CSV line number (the header is line 1).',
    tags,
    params: eventParams,
    notFound: NO_EVENT,
    requestContent: importRequestContent,
    responses: { 200: { description: 'Per-row results', body: ImportResult } },
    problems: {
      400: 'No CSV in the request, or an unreadable upload',
      403: STAFF_ONLY,
      404: NOT_VISIBLE,
      413: 'CSV over 5 MB',
      422: 'Unusable file: no header with nom and email, broken quoting, over 5000 rows',
    },
    handler: async ({ params }, ctx, req, res) => ({
      body: await importInvites(ctx, {
        actor: actorOf(req),
        eventId: params.event_id,
        text: await readCsvUpload(req, res),
        parseRow,
      }),
    }),
  }),
];
