import { randomUUID } from 'node:crypto';
import type { FieldErrors } from '@fieldhouse/problem';
import { sniffPhoto } from './photos.ts';
import { problems } from './problems.ts';
import type { DataEntry, PhotoRef } from './submission-validation.ts';
import { stripDataUrl } from './value-validators.ts';

/** A photo ready to store: its row (without submission id) and bytes. */
export interface PendingPhoto {
  id: string;
  field_uuid: string;
  content_type: string;
  size: number;
  blob_key: string;
  bytes: Buffer;
}

/** Download URL of a stored photo (access checked like its submission). */
const photoUrl = (id: string) => `/api/v1/photos/${id}`;

/**
 * The value of a photo entry, made by the server from what it stored about the photo (docs/collection.md,
 * "Photos"): `{photo_id, content_type, size, url}`, the type sniffed from the bytes, the size
 * counted, the URL the service's own download path. Nothing of it ever comes from a client.
 */
export const photoRefOf = (p: { id: string; content_type: string; size: number }): PhotoRef => ({
  photo_id: p.id,
  content_type: p.content_type,
  size: p.size,
  url: photoUrl(p.id),
});

/**
 * Turns photo entries (base64 values, or uploaded files by field uuid) into stored-photo
 * references: checks the size (413 above `maxBytes`) and sniffs the type from the bytes
 * (422 unless JPEG, PNG, WebP, GIF, HEIC or AVIF). Entries keeping an existing photo pass as
 * validation rebuilt them ({@link photoRefOf} of the stored row, `checkEntries`).
 */
export async function intakePhotos(
  entries: DataEntry[],
  files: ReadonlyMap<string, Buffer>,
  projectId: number,
  maxBytes: number,
): Promise<{ entries: DataEntry[]; photos: PendingPhoto[] }> {
  const errors: FieldErrors = {};
  const photos: PendingPhoto[] = [];
  const out: DataEntry[] = [];
  const present = new Set(entries.map((e) => e.field_uuid));
  const all = [...entries];
  for (const uuid of files.keys())
    if (!present.has(uuid)) all.push({ field_uuid: uuid, type: 'photo', value: null });
  for (const [i, e] of all.entries()) {
    if (e.type !== 'photo') {
      out.push(e);
      continue;
    }
    let bytes = files.get(e.field_uuid);
    if (!bytes && typeof e.value === 'string') {
      const b64 = stripDataUrl(e.value);
      if ((b64.length / 4) * 3 - 2 > maxBytes) throw problems.photoTooLarge({ index: i, maxBytes });
      bytes = Buffer.from(b64, 'base64');
    }
    if (!bytes) {
      out.push(e); // null, or a kept photo reference
      continue;
    }
    if (bytes.length > maxBytes) throw problems.photoTooLarge({ index: i, maxBytes });
    const type = await sniffPhoto(bytes);
    if (!type) {
      (errors[`data.${i}.value`] ??= []).push('the photo is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image');
      continue;
    }
    const id = randomUUID();
    photos.push({
      id,
      field_uuid: e.field_uuid,
      content_type: type,
      size: bytes.length,
      blob_key: `photos/${projectId}/${id}`,
      bytes,
    });
    out.push({
      field_uuid: e.field_uuid,
      type: 'photo',
      value: photoRefOf({ id, content_type: type, size: bytes.length }),
    });
  }
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  return { entries: out, photos };
}
