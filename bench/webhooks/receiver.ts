/**
 * The local webhook receiver of `npm run bench:webhooks`, a process of its own so that its CPU
 * time is measured apart from the bench's. Every POST is answered 204 as soon as its body is in;
 * the receiver records the `webhook-id`, the arrival time (ms since the epoch, sub-millisecond,
 * as {@link nowMs} gives it) and the invite's `nom` from the body (the bench writes its batch
 * number there). One request in RECEIVER_VERIFY_EVERY (default 100) has its Standard Webhooks
 * signature checked with node:crypto against the secret of its path (RECEIVER_SECRETS, JSON
 * `{"/hooks/0": "whsec_..."}`), independently of libs/webhooks.
 *
 * Environment: PORT (loopback), RECEIVER_SECRETS, RECEIVER_VERIFY_EVERY.
 * `GET /healthz`: `{}`; `GET /count`: `{received}`; `GET /results`: {@link ReceiverResults}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { nowMs, type ReceiverResults } from './common.ts';

const secrets = JSON.parse(process.env.RECEIVER_SECRETS ?? '{}') as Record<string, string>;
const verifyEvery = Number(process.env.RECEIVER_VERIFY_EVERY ?? 100);
const results: ReceiverResults = { ids: [], at: [], noms: [], verified: 0, badSignatures: 0, badBodies: 0 };

/** Whether one of the `v1,` signatures of the headers is the HMAC of `id.timestamp.body` with the secret. */
function signatureValid(headers: IncomingHttpHeaders, body: string, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`;
  const expected = createHmac('sha256', key).update(signed).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const given = Buffer.from(s.replace(/^v1,/, ''), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Records one delivery request. */
function record(path: string, headers: IncomingHttpHeaders, body: string, at: number): void {
  let nom = '';
  try {
    nom = (JSON.parse(body) as { data: { invite: { nom: string } } }).data.invite.nom;
  } catch {
    results.badBodies++;
  }
  results.ids.push(String(headers['webhook-id']));
  results.at.push(at);
  results.noms.push(nom);
  if (results.ids.length % verifyEvery === 0) {
    const secret = secrets[path];
    if (secret && signatureValid(headers, body, secret)) results.verified++;
    else results.badSignatures++;
  }
}

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    const answer =
      req.url === '/results' ? results : req.url === '/count' ? { received: results.ids.length } : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = nowMs();
    res.writeHead(204).end();
    record(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), at);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
