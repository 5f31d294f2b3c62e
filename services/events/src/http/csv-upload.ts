import express, { type Request, type Response } from 'express';
import { readMultipartBody } from '@fieldhouse/http';
import { problems } from '../domain/problems.ts';

/** Largest CSV accepted, as a body or an uploaded file. */
const MAX_CSV_BYTES = 5 * 1024 * 1024;

/** `text/csv` (or `text/plain`, `application/csv`) bodies as a string. */
const csvBody = express.text({ type: ['text/csv', 'text/plain', 'application/csv'], limit: MAX_CSV_BYTES });

const readTextBody = (req: Request, res: Response) =>
  new Promise<void>((resolve, reject) => {
    csvBody(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
  });

/**
 * The CSV of an import request: a `text/csv` body, or the `file` field of a
 * `multipart/form-data` upload (the one multipart intake of libs/http), at most 5 MB; undefined
 * when the request holds neither.
 * @throws ProblemError 413 over 5 MB; 400 when the upload cannot be read (no boundary, cut short,
 * another file field, more than one file or 100 text fields).
 */
export async function readCsvUpload(req: Request, res: Response): Promise<string | undefined> {
  if (req.is('multipart/form-data')) {
    const { files } = await readMultipartBody(req, {
      limits: { fileBytes: MAX_CSV_BYTES, files: 1, fields: 100 },
      fileFields: ['file'],
      fileTooLarge: () => problems.csvTooLarge(),
      tooManyParts: () => problems.unreadable({ why: 'unreadableUpload' }),
    });
    return files[0]?.data.toString('utf8');
  }
  await readTextBody(req, res);
  return typeof req.body === 'string' ? req.body : undefined;
}
