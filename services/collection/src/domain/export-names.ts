/**
 * The names an export file is saved under (docs/collection.md, "Exports"): `<project>-<date>.<ext>`,
 * the project's name made into a slug and the UTC day the export was requested, sent in a
 * `Content-Disposition` header after RFC 6266 (`filename` in ASCII, `filename*` in UTF-8 after
 * RFC 8187 when the name has other characters).
 */

import type { ExportFormat } from '../data/exports.ts';

/** File extension and content type of each format. */
export const FORMAT_FILES: Record<ExportFormat, { ext: string; contentType: string }> = {
  csv: { ext: 'csv', contentType: 'text/csv; charset=utf-8' },
  xlsx: { ext: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  geojson: { ext: 'geojson', contentType: 'application/geo+json' },
  zip: { ext: 'zip', contentType: 'application/zip' },
};

/** Longest slug kept from a project name, in characters (names may have 200). */
const MAX_SLUG = 80;

/** What a name becomes when nothing of it is left (only punctuation, or empty). */
const FALLBACK = 'export';

/**
 * `name` as a file-name slug in the reader's script: NFC, lower case, every run of characters
 * that are neither letters nor digits (spaces, punctuation, `/`, `\`, quotes, control characters)
 * one `-`, no `-` at either end, at most {@link MAX_SLUG} characters. `Relevé des puits / Nord`
 * → `relevé-des-puits-nord`; `水井 2025` → `水井-2025`; `!!!` → `export`.
 */
export function nameSlug(name: string): string {
  const slug = Array.from(
    name
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  )
    .slice(0, MAX_SLUG)
    .join('')
    .replace(/-+$/, '');
  return slug || FALLBACK;
}

/**
 * `slug` in ASCII for the plain `filename` parameter, which older clients read: accents dropped
 * (NFKD, then combining marks removed: `relevé` → `releve`), any other character that is not an
 * ASCII letter or digit `-`. `水井-2025` → `2025`; nothing left → `export`.
 */
function asciiSlug(slug: string): string {
  const ascii = slug
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii || FALLBACK;
}

/** `YYYY-MM-DD` of `at` in UTC. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The file name of an export: `<slug of the project name>-<UTC day requested>.<ext>`, e.g.
 * `water-points-2026-11-28.csv`. Without a project name (deleted meanwhile) the slug is `export`.
 */
export const exportFileName = (projectName: string | undefined, requestedAt: Date, ext: string): string =>
  `${nameSlug(projectName ?? '')}-${utcDay(requestedAt)}.${ext}`;

/** RFC 8187 `ext-value` encoding: UTF-8, every byte outside `attr-char` percent-encoded. */
const rfc8187 = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition: attachment` for `filename` (RFC 6266 section 4): `filename="<ASCII>"`
 * always (the name with {@link asciiSlug}'s rule applied before its extension), and when the
 * name is not plain ASCII also `filename*=UTF-8''<percent-encoded>`, which RFC 6266 section 4.3
 * has recipients prefer. The value is ASCII only, so it passes in HTTP headers and in the
 * `response-content-disposition` of a presigned S3 URL.
 */
export function attachmentDisposition(filename: string): string {
  const dot = filename.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  const ascii = `${asciiSlug(base)}${ext.replace(/[^A-Za-z0-9.]/g, '')}`;
  const plain = /^[\x20-\x7e]*$/.test(filename) && !/["\\%]/.test(filename);
  return plain && ascii === filename
    ? `attachment; filename="${filename}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${rfc8187(filename)}`;
}
