import { isUuid } from '@fieldhouse/http';
import { findPhotoForCaller } from '../data/photos.ts';
import { problems } from './problems.ts';
import { maySeeSubmission, type Role } from './roles.ts';
import { userIdOf } from './access.ts';
import type { Actor, CollectionContext } from './context.ts';
import { deliveryOf, type BlobDelivery } from './blob-delivery.ts';

/** Command of {@link readPhoto}. */
export interface ReadPhoto {
  /** The photo's id (a UUID: the `photo_id` of a photo value). */
  photoId: string;
  actor: Actor;
}

/** The headers a photo is answered with (by the service, or by the object storage it redirects to). */
export const photoHeaders = (contentType: string) => ({
  contentType,
  contentDisposition: 'inline',
  cacheControl: 'private, max-age=3600',
});

/** A stored photo to send: where it comes from (a redirect, or its bytes) and its sniffed content type. */
export type PhotoFile = BlobDelivery & { contentType: string };

/**
 * A photo's bytes, for whoever may see its submission (roles with `submission.view_all`, or
 * its own collector; docs/collection.md, "Roles").
 * @throws ProblemError 401 anonymous; 404 unknown, not visible to the actor, or its bytes are missing.
 */
export async function readPhoto(
  ctx: Pick<CollectionContext, 'db' | 'blobs'>,
  cmd: ReadPhoto,
): Promise<PhotoFile> {
  const userId = userIdOf(cmd.actor);
  if (!isUuid(cmd.photoId)) throw problems.notFound({ resource: 'photo' });
  const photo = await findPhotoForCaller(ctx.db, cmd.photoId, userId);
  if (!photo || !maySeeSubmission(photo.role as Role | null, photo, userId))
    throw problems.notFound({ resource: 'photo' });
  const delivery = await deliveryOf(ctx.blobs, photo.blob_key, photoHeaders(photo.content_type));
  if (!delivery) throw problems.notFound({ resource: 'photo' });
  return { ...delivery, contentType: photo.content_type };
}
