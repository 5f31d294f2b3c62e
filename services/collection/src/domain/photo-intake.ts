import { randomUUID } from 'node:crypto';
import type { FieldErrors } from '@fieldhouse/problem';
import { sniffPhoto } from './photos.ts';
import { problems } from './problems.ts';
import type { DataEntry, PhotoRef } from './types.ts';
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
 * The file part a photo entry names (`{"file": "<part name>"}`: a multipart upload of a photo
 * inside a repeat instance, or anywhere), else undefined.
 */
export const filePartOf = (v: unknown): string | undefined =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as { file?: unknown }).file === 'string' &&
  !('photo_id' in v)
    ? (v as { file: string }).file
    : undefined;

/**
 * Calls `visit` on every entry of `entries` and of their repeats' instances, at any depth (form
 * model of issue 34: a repeat's value is an array of instances, each an array of entries), with
 * the entry's key under `data` (`3`, `5.value.1.2`).
 */
export function forEachEntry(
  entries: readonly DataEntry[],
  visit: (e: DataEntry, at: string) => void,
  prefix = '',
): void {
  entries.forEach((e, i) => {
    const at = `${prefix}${i}`;
    visit(e, at);
    if (e.type === 'repeat' && Array.isArray(e.value))
      (e.value as unknown[]).forEach((instance, n) => {
        if (Array.isArray(instance)) forEachEntry(instance as DataEntry[], visit, `${at}.value.${n}.`);
      });
  });
}

/**
 * Turns photo entries into stored-photo references, at every level (those inside repeat
 * instances too, form model of issue 34): base64 values, files uploaded under the photo field's
 * uuid (top-level fields), and files named by the entry (`{"file": "<part name>"}`,
 * {@link filePartOf}). Checks the size (413 above `maxBytes`) and sniffs the type from the bytes
 * (422 on the entry's `data.<key>.value` unless JPEG, PNG, WebP, GIF, HEIC or AVIF). Entries
 * keeping an existing photo pass as validation rebuilt them ({@link photoRefOf} of the stored
 * row, `checkEntries`). `files` names were checked by `checkEntries`: each is a top-level photo
 * field's uuid or named by an entry.
 */
export async function intakePhotos(
  entries: DataEntry[],
  files: ReadonlyMap<string, Buffer>,
  projectId: number,
  maxBytes: number,
): Promise<{ entries: DataEntry[]; photos: PendingPhoto[] }> {
  const errors: FieldErrors = {};
  const photos: PendingPhoto[] = [];
  const named = new Set<string>();
  forEachEntry(entries, (e) => {
    const part = e.type === 'photo' ? filePartOf(e.value) : undefined;
    if (part !== undefined) named.add(part);
  });
  const present = new Set(entries.map((e) => e.field_uuid));
  const all = [...entries];
  for (const uuid of files.keys())
    if (!present.has(uuid) && !named.has(uuid)) all.push({ field_uuid: uuid, type: 'photo', value: null });

  // 413 naming the entry: `data.3` at the top level, "the file at data.5.value.1.2" inside a repeat.
  const tooLarge = (at: string) =>
    /^\d+$/.test(at)
      ? problems.photoTooLarge({ index: Number(at), maxBytes })
      : problems.photoTooLarge({ file: `at data.${at}`, maxBytes });
  const photoOf = async (e: DataEntry, at: string, topLevel: boolean): Promise<DataEntry> => {
    const part = filePartOf(e.value);
    let bytes = part !== undefined ? files.get(part) : topLevel ? files.get(e.field_uuid) : undefined;
    if (!bytes && typeof e.value === 'string') {
      const b64 = stripDataUrl(e.value);
      if ((b64.length / 4) * 3 - 2 > maxBytes) throw tooLarge(at);
      bytes = Buffer.from(b64, 'base64');
    }
    if (!bytes) return e; // null, or a kept photo reference
    if (bytes.length > maxBytes) throw tooLarge(at);
    const type = await sniffPhoto(bytes);
    if (!type) {
      (errors[`data.${at}.value`] ??= []).push('the photo is not a JPEG, PNG, WebP, GIF, HEIC or AVIF image');
      return e;
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
    return {
      field_uuid: e.field_uuid,
      type: 'photo',
      value: photoRefOf({ id, content_type: type, size: bytes.length }),
    };
  };
  const level = async (
    list: readonly DataEntry[],
    prefix: string,
    topLevel: boolean,
  ): Promise<DataEntry[]> => {
    const out: DataEntry[] = [];
    for (const [i, e] of list.entries()) {
      const at = `${prefix}${i}`;
      if (e.type === 'photo') out.push(await photoOf(e, at, topLevel));
      else if (e.type === 'repeat' && Array.isArray(e.value)) {
        const instances: DataEntry[][] = [];
        for (const [n, instance] of (e.value as DataEntry[][]).entries())
          instances.push(await level(instance, `${at}.value.${n}.`, false));
        out.push({ ...e, value: instances });
      } else out.push(e);
    }
    return out;
  };
  const out = await level(all, '', true);
  if (Object.keys(errors).length) throw problems.validationFailed({ errors });
  return { entries: out, photos };
}
