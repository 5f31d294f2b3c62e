import type { Request, Response } from 'express';
import { create } from 'xmlbuilder2';
import { ProblemError } from '@fieldhouse/problem';
import type { ListedForm } from '../domain/openrosa.ts';

/**
 * The XML documents and headers of the OpenRosa routes (OpenRosa 1.0: the Form List API, the
 * manifest, the Form Submission API; written with xmlbuilder2, which escapes every text).
 */

const NS = {
  list: 'http://openrosa.org/xforms/xformsList',
  manifest: 'http://openrosa.org/xforms/xformsManifest',
  response: 'http://openrosa.org/http/response',
} as const;

/**
 * The largest submission body ODK Collect should send in one request, in bytes
 * (`X-OpenRosa-Accept-Content-Length`): the gateway's default `PROXY_BODY_LIMIT` (20 MiB). Collect
 * splits a larger submission into several requests, which this server does not join; each photo
 * is also bounded by `PHOTO_MAX_BYTES`.
 */
const OPENROSA_ACCEPT_CONTENT_LENGTH = 20 * 1024 * 1024;

/** `X-OpenRosa-Version: 1.0` (every answer), and the accepted length on the submission route. */
export function openRosaHeaders(submission: boolean): Record<string, string> {
  return {
    'X-OpenRosa-Version': '1.0',
    ...(submission ? { 'X-OpenRosa-Accept-Content-Length': String(OPENROSA_ACCEPT_CONTENT_LENGTH) } : {}),
  };
}

const xml = (root: ReturnType<typeof create>) => root.end({ prettyPrint: false });

/**
 * The address the client reached the project's OpenRosa routes at: the origin the gateway saw
 * (`X-Forwarded-Proto`, `X-Forwarded-Host`; else `publicUrl`), and the path prefix the client used
 * (`/api/v1/key/{key}` for an app user, which only the gateway sets in `X-Gateway-Openrosa-Base`;
 * else `/api/v1`), then `/projects/{project_id}`.
 */
export function openRosaBaseUrl(req: Request, publicUrl: string, projectId: number): string {
  return `${publicOrigin(req, publicUrl)}${openRosaPrefix(req)}/projects/${projectId}`;
}

/** The origin the gateway saw the request at, else `publicUrl` (no trailing slash). */
export function publicOrigin(req: Request, publicUrl: string): string {
  const first = (v: string | string[] | undefined) => (typeof v === 'string' ? v.split(',')[0]!.trim() : '');
  const proto = first(req.headers['x-forwarded-proto']);
  const host = first(req.headers['x-forwarded-host']);
  if ((proto === 'http' || proto === 'https') && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host))
    return `${proto}://${host}`;
  return publicUrl.replace(/\/+$/, '');
}

function openRosaPrefix(req: Request): string {
  const base = req.headers['x-gateway-openrosa-base'];
  return typeof base === 'string' && /^\/api\/v1\/key\/[A-Za-z0-9]{1,100}$/.test(base) ? base : '/api/v1';
}

/** The `<xforms>` document of the Form List API: each form with its download and manifest links. */
export function formListXml(forms: readonly ListedForm[], baseUrl: string): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' });
  const list = root.ele(NS.list, 'xforms');
  for (const f of forms) {
    const x = list.ele(NS.list, 'xform');
    x.ele(NS.list, 'formID').txt(f.formId);
    x.ele(NS.list, 'name').txt(f.name);
    x.ele(NS.list, 'version').txt(f.version);
    x.ele(NS.list, 'hash').txt(f.hash);
    x.ele(NS.list, 'downloadUrl').txt(`${baseUrl}/forms/${encodeURIComponent(f.formId)}.xml`);
    x.ele(NS.list, 'manifestUrl').txt(`${baseUrl}/forms/${encodeURIComponent(f.formId)}/manifest`);
  }
  return xml(root);
}

/** The manifest of a form: Fieldhouse forms have no media files, so an empty `<manifest>`. */
export function manifestXml(): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' });
  root.ele(NS.manifest, 'manifest');
  return xml(root);
}

/** An `OpenRosaResponse` with the message ODK Collect shows its user. */
export function openRosaResponseXml(message: string, nature: string): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' });
  root.ele(NS.response, 'OpenRosaResponse').ele(NS.response, 'message').att('nature', nature).txt(message);
  return xml(root);
}

/**
 * Answers a problem of an OpenRosa route. An OpenRosa client (its request carries
 * `X-OpenRosa-Version`, as the OpenRosa HTTP standard requires and ODK Collect and Enketo send)
 * gets an `OpenRosaResponse` (`text/xml`) with the problem's status and the OpenRosa headers: the
 * problem's detail is the message, and for field errors the first few of them (what a collector
 * can act on). Any other client gets the usual problem document (the error middleware). A 401
 * also asks for HTTP Basic credentials (`WWW-Authenticate`), so ODK Collect asks its user to
 * sign in. Anything but a problem is passed on (a 500 by the error middleware).
 */
export function sendOpenRosaProblem(req: Request, res: Response, err: unknown, submission: boolean): void {
  if (!(err instanceof ProblemError)) throw err;
  if (err.status === 401) res.set('WWW-Authenticate', 'Basic realm="Fieldhouse", charset="UTF-8"');
  res.set(openRosaHeaders(submission));
  if (req.headers['x-openrosa-version'] === undefined) throw err;
  const fieldErrors = Object.entries(err.errors ?? {}).flatMap(([k, v]) => v.map((m) => `${k}: ${m}`));
  const message =
    err.status === 422 && fieldErrors.length
      ? `${err.message} ${fieldErrors.slice(0, 3).join('; ')}`
      : err.message;
  res.status(err.status).set(err.headers);
  res.type('text/xml; charset=utf-8').send(openRosaResponseXml(message, 'error'));
}
