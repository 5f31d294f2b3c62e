/**
 * Data of the media zip bench (run.ts, part 3): a project whose form has a text and a photo
 * question, and `rows` submissions with one stored photo each, `kib` KiB of random bytes (as
 * incompressible as a JPEG) in the local blob store under `blobDir`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { ApiCall } from '../collection/in-process.ts';

/**
 * Creates the workspace, project and published form through the API, then inserts the
 * submissions and their `photos` rows (500 per statement) and writes the photo files. Each
 * submission's photo answer is the reference the service makes (`{photo_id, content_type,
 * size, url}`). Resolves with the project's ids and the row count.
 */
export async function loadPhotoProject(
  call: ApiCall,
  db: Knex,
  blobDir: string,
  rows: number,
  kib: number,
): Promise<{ workspaceId: number; projectId: number; rows: number }> {
  const ws = await call('POST', '/workspaces', { name: 'Media bench' });
  const project = await call('POST', `/workspaces/${ws.id}/projects`, { name: `Wells ${rows}` });
  const version = await call('POST', `/projects/${project.id}/versions`, {});
  const site = (
    await call('POST', `/versions/${version.id}/fields`, { name: 'site', label: 'Site', type: 'text' })
  ).uuid as string;
  const photo = (
    await call('POST', `/versions/${version.id}/fields`, { name: 'photo', label: 'Photo', type: 'photo' })
  ).uuid as string;
  await call('POST', `/versions/${version.id}/publish`);
  await mkdir(join(blobDir, 'photos', String(project.id)), { recursive: true });
  const size = kib * 1024;
  for (let start = 0; start < rows; start += 500) {
    const batch = Array.from({ length: Math.min(500, rows - start) }, (_, i) => ({
      n: start + i,
      photoId: randomUUID(),
    }));
    const inserted = (await db('submissions')
      .insert(
        batch.map(({ n, photoId }) => ({
          project_id: project.id,
          form_version_id: version.id,
          collector_id: 1,
          status: 'submitted',
          data: JSON.stringify([
            { field_uuid: site, type: 'text', value: `Site ${n}` },
            {
              field_uuid: photo,
              type: 'photo',
              value: {
                photo_id: photoId,
                content_type: 'image/jpeg',
                size,
                url: `/api/v1/photos/${photoId}`,
              },
            },
          ]),
          search_text: `site ${n}`,
          created_at: new Date(Date.UTC(2025, 0, 1) + n * 1000),
          updated_at: new Date(),
          submitted_at: new Date(),
        })),
      )
      .returning('id')) as Array<{ id: number }>;
    await db('photos').insert(
      batch.map(({ photoId }, i) => ({
        id: photoId,
        submission_id: inserted[i]!.id,
        field_uuid: photo,
        content_type: 'image/jpeg',
        size,
        blob_key: `photos/${project.id}/${photoId}`,
      })),
    );
    for (const { photoId } of batch)
      await writeFile(join(blobDir, 'photos', String(project.id), photoId), randomBytes(size));
  }
  return { workspaceId: ws.id as number, projectId: project.id as number, rows };
}
