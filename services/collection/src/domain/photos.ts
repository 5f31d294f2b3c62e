import { fileTypeFromBuffer } from 'file-type';

/** Image types accepted for photo fields, detected from the bytes (never from a client header). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/avif'];

/**
 * Sniffs the content type of photo bytes with `file-type`.
 * @returns the MIME type when it is an accepted image type, else null.
 */
export async function sniffPhoto(bytes: Buffer): Promise<string | null> {
  const t = await fileTypeFromBuffer(bytes);
  return t && PHOTO_TYPES.includes(t.mime) ? t.mime : null;
}
