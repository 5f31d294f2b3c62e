import { fileTypeFromBuffer } from 'file-type';
import { PHOTO_TYPES } from './types.ts';
export { PHOTO_TYPES } from './types.ts';

/**
 * Sniffs the content type of photo bytes with `file-type`.
 * @returns the MIME type when it is an accepted image type, else null.
 */
export async function sniffPhoto(bytes: Buffer): Promise<string | null> {
  const t = await fileTypeFromBuffer(bytes);
  return t && PHOTO_TYPES.includes(t.mime) ? t.mime : null;
}
