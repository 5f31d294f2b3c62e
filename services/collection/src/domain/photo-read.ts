import type { Readable } from 'node:stream';
import { isUuid } from '@fieldhouse/http';
import { notFound } from '@fieldhouse/problem';
import { findPhotoForCaller } from '../data/photos.ts';
import { maySeeSubmission, type Role } from './roles.ts';
import type { SubmissionDeps } from './submission-deps.ts';

/** Command of {@link readPhoto}. */
export interface ReadPhoto {
  /** The photo's id (a UUID: the `photo_id` of a photo value). */
  photoId: string;
  /** The signed-in caller. */
  userId: number;
}

/** A stored photo to send: its bytes as a stream, their size in bytes and sniffed content type. */
export interface PhotoFile {
  stream: Readable;
  size: number;
  contentType: string;
}

/**
 * A photo's bytes, for whoever may see its submission (roles with `submission.view_all`, or
 * its own collector; docs/collection.md, "Roles").
 * @throws ProblemError 404 unknown, not visible to the caller, or its bytes are missing.
 */
export async function readPhoto(
  deps: Pick<SubmissionDeps, 'db' | 'blobs'>,
  cmd: ReadPhoto,
): Promise<PhotoFile> {
  if (!isUuid(cmd.photoId)) throw notFound('Photo not found.');
  const photo = await findPhotoForCaller(deps.db, cmd.photoId, cmd.userId);
  if (!photo || !maySeeSubmission(photo.role as Role | null, photo, cmd.userId))
    throw notFound('Photo not found.');
  const blob = await deps.blobs.getStream(photo.blob_key);
  if (!blob) throw notFound('Photo not found.');
  return { stream: blob.stream, size: blob.size, contentType: photo.content_type };
}
