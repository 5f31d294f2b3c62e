import express, { type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import { badRequest, payloadTooLarge } from '@fieldhouse/problem';

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

const run = (handler: RequestHandler, req: Request, res: Response) =>
  new Promise<void>((resolve, reject) => {
    void handler(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
  });

/**
 * The CSV of an import request: a `text/csv` body or the `file` field of a
 * `multipart/form-data` upload (multer), at most 5 MB; undefined when the request holds neither.
 * TRANSITION: the lead swaps it for the shared multipart helper at merge.
 * @throws ProblemError 413 over 5 MB; 400 when the upload cannot be read.
 */
export async function readCsvUpload(req: Request, res: Response): Promise<string | undefined> {
  await run(csvBody, req, res);
  await run(upload, req, res);
  if (req.file) return req.file.buffer.toString('utf8');
  return typeof req.body === 'string' ? req.body : undefined;
}
