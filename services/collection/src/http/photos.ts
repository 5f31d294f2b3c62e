import { Router } from 'express';
import { notFound } from '@fieldhouse/problem';
import { can } from '../domain/roles.ts';
import { findProject } from '../data/projects.ts';
import { roleIn } from '../data/workspaces.ts';
import { userIdOf } from './access.ts';
import type { CollectionContext } from './context.ts';

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
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Photo not found.');
    const photo = (await ctx
      .db('photos as p')
      .join('submissions as s', 's.id', 'p.submission_id')
      .where('p.id', id)
      .first('p.*', 's.project_id', 's.collector_id')) as
      | {
          blob_key: string;
          content_type: string;
          size: number;
          project_id: number;
          collector_id: number | null;
        }
      | undefined;
    const project = photo ? await findProject(ctx.db, photo.project_id) : undefined;
    const role = project ? await roleIn(ctx.db, project.workspace_id, userId) : undefined;
    if (!photo || !role || !(can(role, 'submission.view_all') || photo.collector_id === userId))
      throw notFound('Photo not found.');
    const bytes = await ctx.blobs.get(photo.blob_key);
    if (!bytes) throw notFound('Photo not found.');
    res
      .status(200)
      .set({
        'Content-Type': photo.content_type,
        'Content-Length': String(bytes.length),
        'Cache-Control': 'private, max-age=3600',
        'Content-Disposition': 'inline',
        'X-Content-Type-Options': 'nosniff',
      })
      .end(bytes);
  });

  return r;
}
