import type { AnyRouteSpec } from '@fieldhouse/http';
import { PHOTO_TYPES } from '../domain/photos.ts';
import { photoHeaders, readPhoto } from '../domain/photo-read.ts';
import type { CollectionContext } from '../domain/context.ts';
import { route } from './declare.ts';
import { downloadHeaders, sendDelivery } from './send-blob.ts';
import { photoParams } from './submission-schemas.ts';

/**
 * GET /photos/{photo_id}: the photo's bytes (the `url` of a photo value), with their sniffed
 * `Content-Type`, streamed.
 */
const getPhotoRoute = route({
  method: 'get',
  path: '/api/v1/photos/{photo_id}',
  operationId: 'getPhoto',
  summary: 'Photo bytes (sniffed content type)',
  description:
    'For whoever may see its submission (roles with submission.view_all, or its own collector); 404 otherwise. ' +
    'The type was sniffed from the bytes at upload (JPEG, PNG, WebP, GIF, HEIC or AVIF).',
  tags: ['Photos'],
  params: photoParams,
  notFound: 'Photo not found.',
  responses: {
    200: {
      description: 'The image',
      content: Object.fromEntries(PHOTO_TYPES.map((t) => [t, null])),
      headers: {
        'Content-Length': { description: 'Size in bytes', schema: { type: 'integer' } },
        'Cache-Control': { description: '`private, max-age=3600`' },
        'Content-Disposition': { description: '`inline`' },
        'X-Content-Type-Options': { description: '`nosniff`' },
      },
    },
    302: {
      description:
        'With object storage (`BLOB_STORE=s3`): a presigned URL of the photo, valid `S3_PRESIGN_SECONDS` ' +
        '(300 s), answering with the headers above',
      headers: {
        Location: { description: 'The presigned URL', schema: { type: 'string' } },
        'Cache-Control': { description: '`no-store`' },
      },
    },
  },
  problems: { 404: 'Unknown photo, or its submission is not visible to the caller' },
  handler: async ({ params }, ctx, req, res) => {
    const photo = await readPhoto(ctx, { photoId: params.photo_id, actor: req.caller });
    await sendDelivery(res, photo, {
      ...downloadHeaders(photoHeaders(photo.contentType)),
      'X-Content-Type-Options': 'nosniff',
    });
  },
});

/** Photo downloads (the `url` of a photo value). */
export const photoRoutes: AnyRouteSpec<CollectionContext>[] = [getPhotoRoute];
