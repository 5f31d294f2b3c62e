import { Router } from 'express';
import { isUuid } from '@fieldhouse/http';
import { notFound } from '@fieldhouse/problem';
import { maySeeSubmission, type Role } from '../domain/roles.ts';
import { userIdOf } from './access.ts';
import type { CollectionContext } from './context.ts';
import { sendBlob } from './send-blob.ts';

/** Photo downloads (the `url` of a photo value). */
export function photoRoutes(ctx: CollectionContext): Router {
  const r = Router();

  /**
   * GET /photos/{photo_id}: the photo's bytes with their sniffed `Content-Type`, for whoever
   * may see its submission (roles with submission.view_all, or its own collector); 404 otherwise.
   */
  r.get('/api/v1/photos/:photoId', async (req, res) => {
    const userId = userIdOf(req);
    const id = req.params.photoId;
    if (!isUuid(id)) throw notFound('Photo not found.');
    // The photo, its submission's collector and the caller's role, in one query.
    const photo = (await ctx
      .db('photos as ph')
      .join('submissions as s', 's.id', 'ph.submission_id')
      .join('projects as p', 'p.id', 's.project_id')
      .leftJoin('workspace_members as m', (j) =>
        j.on('m.workspace_id', 'p.workspace_id').andOn('m.user_id', ctx.db.raw('?', [userId])),
      )
      .where('ph.id', id)
      .first('ph.blob_key', 'ph.content_type', 's.collector_id', 'm.role')) as
      { blob_key: string; content_type: string; collector_id: number | null; role: Role | null } | undefined;
    if (!photo || !maySeeSubmission(photo.role, photo, userId)) throw notFound('Photo not found.');
    const blob = await ctx.blobs.getStream(photo.blob_key);
    if (!blob) throw notFound('Photo not found.');
    await sendBlob(res, blob, {
      'Content-Type': photo.content_type,
      'Cache-Control': 'private, max-age=3600',
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return r;
}
