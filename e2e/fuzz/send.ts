import { request } from 'node:http';
import type { FuzzRequest } from './requests.ts';

/** What came back: status, content type, and the body as text (streams are cut after their headers). */
export interface FuzzResponse {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Sends `req` to the gateway exactly as generated (no normalisation of the path), with the
 * bearer token of its caller. An event stream is closed as soon as its headers arrive.
 * Rejects after `timeoutMs` (a hang is a failure too).
 */
export function send(
  base: URL,
  req: FuzzRequest,
  tokens: Record<FuzzRequest['caller'], string | undefined>,
  timeoutMs = 15_000,
): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = tokens[req.caller];
    if (req.authorization) headers.authorization = req.authorization;
    else if (token) headers.authorization = `Bearer ${token}`;
    if (req.header) headers[req.header[0]] = req.header[1];
    const body = req.body ? Buffer.from(req.body.raw, 'utf8') : undefined;
    if (req.body && body) {
      headers['content-type'] = req.body.contentType;
      headers['content-length'] = String(body.length);
    }
    const r = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers,
        timeout: timeoutMs,
      },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.startsWith('text/event-stream')) {
          res.destroy();
          return resolve({ status: res.statusCode ?? 0, contentType, body: '' });
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(body);
  });
}
