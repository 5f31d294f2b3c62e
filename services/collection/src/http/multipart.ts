import busboy from 'busboy';
import type { Request } from 'express';
import { assertStorableText, badRequest, payloadTooLarge } from '@fieldhouse/problem';

export interface MultipartSubmission {
  /** The JSON of the `submission` part. */
  body: unknown;
  /** Uploaded files by part name (a photo field's uuid). */
  files: Map<string, Buffer>;
}

/**
 * Reads a `multipart/form-data` submission with busboy: a `submission` part holding the JSON
 * body of spec 2.1, and one file part per photo, named by the photo field's uuid.
 * @throws ProblemError 413 when a file exceeds `maxFileBytes` or there are too many parts,
 *   400 when the `submission` part is missing or not JSON, or the stream is malformed;
 *   422 naming the field when the JSON holds text no database can store (as a JSON body would).
 */
export function readMultipart(req: Request, maxFileBytes: number): Promise<MultipartSubmission> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fileSize: maxFileBytes, files: 50, fields: 10, fieldSize: 2 * 1024 * 1024, parts: 60 },
      });
    } catch {
      reject(badRequest('The multipart body is malformed (missing boundary).'));
      return;
    }
    const files = new Map<string, Buffer>();
    let json: string | undefined;
    let failure: Error | undefined;
    const fail = (err: Error) => {
      failure ??= err;
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(payloadTooLarge('The submission part is too large.'));
      if (name === 'submission') json = value;
    });
    bb.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () =>
        fail(
          payloadTooLarge(`The file ${name} is larger than the photo limit of ${maxFileBytes} bytes.`, {
            code: 'photo_too_large',
          }),
        ),
      );
      stream.on('end', () => files.set(name, Buffer.concat(chunks)));
    });
    for (const ev of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const)
      bb.on(ev, () => fail(payloadTooLarge('The multipart body has too many parts.')));
    bb.on('error', () => reject(badRequest('The multipart body is malformed.')));
    bb.on('close', () => {
      if (failure) return reject(failure);
      if (json === undefined)
        return reject(badRequest('The multipart body needs a "submission" part with the JSON body.'));
      let body: unknown;
      try {
        body = JSON.parse(json);
      } catch {
        return reject(badRequest('The "submission" part is not valid JSON.', { code: 'invalid_json' }));
      }
      try {
        assertStorableText(body);
      } catch (err) {
        return reject(err as Error);
      }
      resolve({ body, files });
    });
    req.pipe(bb);
  });
}
