import type { Tx } from '../data/tx.ts';
import type { OutboxWriter } from '@fieldhouse/messaging';
import { insertPhotos } from '../data/submissions.ts';
import type { PendingPhoto } from './photo-intake.ts';
import type { CollectionContext } from './context.ts';

/**
 * Writes photo bytes to the blob store and their rows (table `photos`) for `submissionId`;
 * call it inside {@link photoTransaction}, which deletes the bytes if the transaction fails.
 */
export async function storePhotos(
  ctx: Pick<CollectionContext, 'blobs'>,
  trx: Tx,
  submissionId: number,
  photos: PendingPhoto[],
): Promise<void> {
  for (const p of photos) await ctx.blobs.put(p.blob_key, p.bytes, p.content_type);
  await insertPhotos(
    trx,
    photos.map(({ bytes: _bytes, ...row }) => ({ ...row, submission_id: submissionId })),
  );
}

/**
 * `ctx.inTransaction(work)` for a write that stores new `photos` ({@link storePhotos}), with
 * its outbox messages in the same transaction. The blob store is not transactional: when the
 * transaction fails, at any step, the photos' bytes are deleted before the error goes on, so a
 * refused or failed write leaves no file behind.
 */
export async function photoTransaction<T>(
  ctx: Pick<CollectionContext, 'inTransaction' | 'blobs' | 'logger'>,
  photos: PendingPhoto[],
  work: (trx: Tx, outbox: OutboxWriter) => Promise<T>,
): Promise<T> {
  try {
    return await ctx.inTransaction(work);
  } catch (err) {
    for (const p of photos) {
      await ctx.blobs.delete(p.blob_key).catch((e: unknown) => {
        ctx.logger.warn('could not delete the photo of a failed write', { key: p.blob_key, err: e });
      });
    }
    throw err;
  }
}
