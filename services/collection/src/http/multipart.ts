import type { Request } from 'express';
import { readMultipartBody } from '@fieldhouse/http';
import { assertStorableText } from '@fieldhouse/problem';
import { problems } from '../domain/problems.ts';

export interface MultipartSubmission {
  /** The JSON of the `submission` part. */
  body: unknown;
  /** Uploaded files by part name (a photo field's uuid). */
  files: Map<string, Buffer>;
}

/**
 * Reads a `multipart/form-data` submission (with `readMultipartBody` of `@fieldhouse/http`): a
 * `submission` part holding the JSON body of spec 2.1, and one file part per photo, named by the
 * photo field's uuid (at most 50 files, 10 text fields of up to 2 MiB, 60 parts).
 * @throws ProblemError 413 `photo_too_large` when a file exceeds `maxFileBytes`, 413 when there
 *   are too many parts or the `submission` part is too large, 400 when the `submission` part is
 *   missing or not JSON (`invalid_json`), or the stream is malformed; 422 naming the field when
 *   the JSON holds text no database can store (as a JSON body would).
 */
export async function readMultipart(req: Request, maxFileBytes: number): Promise<MultipartSubmission> {
  const { fields, files } = await readMultipartBody(req, {
    limits: { fileBytes: maxFileBytes, files: 50, fields: 10, fieldBytes: 2 * 1024 * 1024, parts: 60 },
    fileTooLarge: (name) => problems.photoTooLarge({ file: name, maxBytes: maxFileBytes }),
  });
  const json = fields.get('submission');
  if (json === undefined) throw problems.submissionPartMissing();
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw problems.invalidJson();
  }
  assertStorableText(body);
  return { body, files: new Map(files.map((f) => [f.field, f.data])) };
}
