import type { Readable } from 'node:stream';
import type { BlobDownload, BlobStore } from '../blob/blob-store.ts';

/**
 * How a stored file reaches the client once its access was checked: a short-lived URL of the
 * object storage to redirect to, or its bytes streamed by the service (local store).
 */
export type BlobDelivery = { redirect: string } | { stream: Readable; size: number };

/**
 * The {@link BlobDelivery} of `key`: the store's download URL (answering with `download`'s
 * headers) when it gives one, else its bytes; undefined when the local store has no such key.
 */
export async function deliveryOf(
  blobs: BlobStore,
  key: string,
  download: BlobDownload,
): Promise<BlobDelivery | undefined> {
  const url = await blobs.downloadUrl?.(key, download);
  return url ? { redirect: url } : blobs.getStream(key);
}
