import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/**
 * Sends a stored file (photo, export) with `headers` and its `Content-Length`, streamed. A read
 * error or a client that goes away mid-way ends the response (pipeline destroys both sides):
 * nothing else can be said once the status line is out, and no error is left unhandled.
 */
export async function sendBlob(
  res: Response,
  blob: { stream: Readable; size: number },
  headers: Record<string, string>,
): Promise<void> {
  res.status(200).set({ ...headers, 'Content-Length': String(blob.size) });
  await pipeline(blob.stream, res).catch(() => undefined);
}
