import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { BlobDownload } from '../blob/blob-store.ts';
import type { BlobDelivery } from '../domain/blob-delivery.ts';

/**
 * Sends a stored file (photo, export) with `headers` and its `Content-Length`, streamed. A read
 * error or a client that goes away mid-way ends the response (pipeline destroys both sides):
 * nothing else can be said once the status line is out, and no error is left unhandled.
 */
async function sendBlob(
  res: Response,
  blob: { stream: Readable; size: number },
  headers: Record<string, string>,
): Promise<void> {
  res.status(200).set({ ...headers, 'Content-Length': String(blob.size) });
  await pipeline(blob.stream, res).catch(() => undefined);
}

/** The response headers of a {@link BlobDownload}. */
export const downloadHeaders = (d: BlobDownload): Record<string, string> => ({
  'Content-Type': d.contentType,
  'Content-Disposition': d.contentDisposition,
  'Cache-Control': d.cacheControl,
});

/**
 * Answers a stored file: 302 to the object storage's short-lived URL (never cached: the URL
 * expires), or 200 with its bytes and `headers` ({@link sendBlob}).
 */
export async function sendDelivery(
  res: Response,
  delivery: BlobDelivery,
  headers: Record<string, string>,
): Promise<void> {
  if ('redirect' in delivery) {
    res.status(302).set({ Location: delivery.redirect, 'Cache-Control': 'no-store' }).end();
    return;
  }
  await sendBlob(res, delivery, headers);
}
