import express, { Router, type RequestHandler } from 'express';
import multer from 'multer';
import {
  badRequest,
  joiErrors,
  payloadTooLarge,
  unprocessable,
  unstorableTextErrors,
  type FieldErrors,
} from '@fieldhouse/problem';
import { CsvFileError, parseInviteCsv } from '../domain/csv.ts';
import { DEFAULT_INVITE_TYPE } from '../domain/invite-types.ts';
import { ownedEventOf } from './access.ts';
import type { EventsContext } from './context.ts';
import { createInvite } from './invite-create.ts';
import { createInviteSchema } from './schemas.ts';
import { ProblemError } from '@fieldhouse/problem';

/** Largest CSV accepted, as a body or an uploaded file. */
const MAX_CSV_BYTES = 5 * 1024 * 1024;

/** `text/csv` (or `text/plain`, `application/csv`) bodies as a string. */
const csvBody = express.text({ type: ['text/csv', 'text/plain', 'application/csv'], limit: MAX_CSV_BYTES });

/** A `multipart/form-data` upload in the field `file`; multer's errors become problems. */
const upload: RequestHandler = (req, res, next) => {
  multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_CSV_BYTES, files: 1 } }).single('file')(
    req,
    res,
    (err: unknown) => {
      if (!err) return next();
      const code = (err as { code?: string }).code;
      next(
        code === 'LIMIT_FILE_SIZE'
          ? payloadTooLarge('The CSV file is larger than 5 MB.')
          : badRequest(`The upload cannot be read: ${(err as Error).message}`),
      );
    },
  );
};

/** One row's outcome in the import answer. */
type RowResult =
  | { row: number; status: 'created'; id: string; nom: string; code_unique: string }
  | { row: number; status: 'failed'; errors: FieldErrors };

/** Bulk import of invites from CSV, one result per row. */
export function importRoutes(ctx: EventsContext): Router {
  const r = Router();

  /**
   * POST /api/events/{event_id}/invites/import: a CSV as the body (`Content-Type: text/csv`) or
   * as the `file` field of `multipart/form-data`, columns `nom`, `email`, `type_invite` (optional).
   * Each row is created on its own (invitation e-mail included), so bad rows never fail good ones.
   * 200 `{created, failed, results: [{row, status: "created", id, nom, code_unique} |
   * {row, status: "failed", errors: {field: [message]}}]}`, `row` being the CSV line number.
   * Owner only. 400 without a CSV; 413 over 5 MB; 422 when the file as a whole is unusable.
   */
  r.post('/api/events/:event_id/invites/import', csvBody, upload, async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    const text = req.file
      ? req.file.buffer.toString('utf8')
      : typeof req.body === 'string'
        ? req.body
        : undefined;
    if (text === undefined)
      throw badRequest(
        'Send the CSV as a text/csv body or as the "file" field of a multipart/form-data upload.',
      );
    let rows;
    try {
      rows = parseInviteCsv(text);
    } catch (err) {
      if (err instanceof CsvFileError) throw unprocessable('file', err.message);
      throw err;
    }
    const results: RowResult[] = [];
    for (const { line, values } of rows) {
      const unstorable = unstorableTextErrors(values);
      if (Object.keys(unstorable).length) {
        results.push({ row: line, status: 'failed', errors: unstorable });
        continue;
      }
      const { value, error } = createInviteSchema.validate(
        {
          nom: values.nom,
          email: values.email,
          ...(values.type_invite ? { type_invite: values.type_invite } : {}),
        },
        { abortEarly: false },
      );
      if (error) {
        results.push({ row: line, status: 'failed', errors: joiErrors(error) });
        continue;
      }
      try {
        const invite = await createInvite(ctx, event, {
          ...value,
          type_invite: value.type_invite ?? DEFAULT_INVITE_TYPE,
        });
        results.push({
          row: line,
          status: 'created',
          id: invite.id,
          nom: invite.nom,
          code_unique: invite.code_unique,
        });
      } catch (err) {
        if (!(err instanceof ProblemError) || !err.errors) throw err;
        results.push({ row: line, status: 'failed', errors: err.errors });
      }
    }
    const created = results.filter((x) => x.status === 'created').length;
    res.json({ created, failed: results.length - created, results });
  });

  return r;
}
