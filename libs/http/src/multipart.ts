import busboy from 'busboy';
import type { Request } from 'express';
import { badRequest, payloadTooLarge, ProblemError } from '@fieldhouse/problem';

/** Limits of one `multipart/form-data` body (busboy's, named for what they bound). */
export interface MultipartLimits {
  /** Largest file part, in bytes. */
  fileBytes: number;
  /** Most file parts. */
  files: number;
  /** Most text fields (default 10). */
  fields?: number;
  /** Largest text field value, in bytes (default 1 MiB). */
  fieldBytes?: number;
  /** Most parts, files and fields together (default `files + fields`). */
  parts?: number;
}

/** Options of {@link readMultipartBody}. */
export interface MultipartOptions {
  limits: MultipartLimits;
  /**
   * The names file parts may have (e.g. `['file']`); a file part with another name is a 400.
   * Absent: any name (e.g. photos named by their field's uuid).
   */
  fileFields?: readonly string[];
  /** The problem for a file over `limits.fileBytes` (default: 413 naming the part and limit). */
  fileTooLarge?: (field: string, limitBytes: number) => ProblemError;
  /** The problem for more files, fields or parts than the limits allow (default: 413). */
  tooManyParts?: () => ProblemError;
}

/** One uploaded file, read into memory. */
export interface MultipartFile {
  /** The part's name (form field). */
  field: string;
  /** The file name the client gave (may be empty). */
  filename: string;
  /** The part's content type as the client declared it. */
  mimeType: string;
  data: Buffer;
}

/** A read `multipart/form-data` body: text fields by name (last one wins) and files in order. */
export interface MultipartBody {
  fields: Map<string, string>;
  files: MultipartFile[];
}

/**
 * Reads a `multipart/form-data` request body into memory with busboy, within limits. Resolves
 * once the whole body is read; the first problem met decides the answer:
 * @throws ProblemError 400 when the body is not multipart or is malformed (no boundary, cut
 *   stream) or a file part's name is not in `fileFields`; 413 (`fileTooLarge`) when a file exceeds
 *   `limits.fileBytes`; 413 when a text field exceeds `limits.fieldBytes`; 413 (`tooManyParts`)
 *   when there are more files, fields or parts than allowed.
 */
export function readMultipartBody(req: Request, options: MultipartOptions): Promise<MultipartBody> {
  const { limits } = options;
  const fieldCount = limits.fields ?? 10;
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.fileBytes,
          files: limits.files,
          fields: fieldCount,
          fieldSize: limits.fieldBytes ?? 1024 * 1024,
          parts: limits.parts ?? limits.files + fieldCount,
        },
      });
    } catch {
      reject(badRequest('The multipart body is malformed (missing boundary).'));
      return;
    }
    const fields = new Map<string, string>();
    const files: MultipartFile[] = [];
    let failure: ProblemError | undefined;
    const fail = (problem: ProblemError) => {
      failure ??= problem;
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(payloadTooLarge(`The ${name} part is too large.`));
      fields.set(name, value);
    });
    bb.on('file', (name, stream, info) => {
      if (options.fileFields && !options.fileFields.includes(name)) {
        fail(badRequest(`Unexpected file part "${name}".`));
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      // A cut body fails the file stream too; the busboy 'error' below answers it.
      stream.on('error', () => fail(badRequest('The multipart body is malformed.')));
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on('data', (c: Buffer) => {
        if (!truncated) chunks.push(c);
      });
      stream.on('limit', () => {
        truncated = true;
        fail(
          options.fileTooLarge?.(name, limits.fileBytes) ??
            payloadTooLarge(`The file ${name} is larger than the limit of ${limits.fileBytes} bytes.`),
        );
      });
      stream.on('end', () => {
        if (!truncated)
          files.push({
            field: name,
            filename: info.filename ?? '',
            mimeType: info.mimeType,
            data: Buffer.concat(chunks),
          });
      });
    });
    for (const ev of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const)
      bb.on(ev, () =>
        fail(options.tooManyParts?.() ?? payloadTooLarge('The multipart body has too many parts.')),
      );
    bb.on('error', () => reject(badRequest('The multipart body is malformed.')));
    bb.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    // A client gone mid-upload: settle now instead of leaving the request's handler waiting.
    req.once('aborted', () => {
      req.unpipe(bb);
      bb.destroy();
      reject(new ProblemError(400, 'The request was aborted by the client.', { code: 'request_aborted' }));
    });
    req.pipe(bb);
  });
}
