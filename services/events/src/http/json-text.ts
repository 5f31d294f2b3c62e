import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { JsonText } from '../domain/offline-invitees.ts';

/**
 * Sends `{[key]: json, ...fields}` as a 200 JSON answer, splicing `json` (JSON text already
 * rendered: thousands of invitees, docs/events.md "Speed of the changes feed") in as it is,
 * without parsing or serializing it again. The ETag is a digest of the small fields and of
 * `version`, which names what `json` holds (the same version, the same text), instead of a hash
 * of the whole body.
 */
export function sendJsonWith(
  res: Response,
  spliced: { key: string; json: JsonText<unknown>; version: string },
  fields: Record<string, unknown>,
): void {
  const rest = JSON.stringify(fields);
  const body = `{${JSON.stringify(spliced.key)}:${spliced.json}${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
  const tag = createHash('sha1').update(spliced.version).update(rest).digest('base64url');
  res.set('ETag', `W/"${tag}"`).type('application/json; charset=utf-8').send(body);
}
