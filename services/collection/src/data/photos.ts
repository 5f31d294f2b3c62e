import type { Knex } from 'knex';

/** A stored photo with what decides who may see it: its submission's collector and the caller's role. */
export interface PhotoAccessRow {
  blob_key: string;
  content_type: string;
  collector_id: number | null;
  /** The caller's role in the photo's workspace (null: not a member). */
  role: string | null;
}

/**
 * The photo `photoId` (a UUID), its submission's collector and the caller's role in the
 * submission's workspace, in one query; undefined when there is no such photo.
 */
export const findPhotoForCaller = (
  db: Knex,
  photoId: string,
  userId: number,
): Promise<PhotoAccessRow | undefined> =>
  db('photos as ph')
    .join('submissions as s', 's.id', 'ph.submission_id')
    .join('projects as p', 'p.id', 's.project_id')
    .leftJoin('workspace_members as m', (j) =>
      j.on('m.workspace_id', 'p.workspace_id').andOn('m.user_id', db.raw('?', [userId])),
    )
    .where('ph.id', photoId)
    .first('ph.blob_key', 'ph.content_type', 's.collector_id', 'm.role');

/** What the server stored about a photo of a submission (table `photos`). */
export interface StoredPhotoRow {
  id: string;
  field_uuid: string;
  content_type: string;
  size: number;
}

/** The photos stored for submission `submissionId` (every one ever stored, kept or replaced since). */
export const listSubmissionPhotos = (db: Knex, submissionId: number): Promise<StoredPhotoRow[]> =>
  db('photos').where({ submission_id: submissionId }).select('id', 'field_uuid', 'content_type', 'size');
