/**
 * What the replicas suite's scenarios share: a client of each gateway replica (bypassing the
 * balancer), a results stream held on a chosen process, and the internal JWT a gateway would
 * send, to hold a stream on one polls replica directly.
 */
import { readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { onServerSentEvents, sleep } from '@fieldhouse/testkit';
import { signInternalToken } from '../../gateway/src/proxy/internal-token.ts';
import { loadSigningKey } from '../../gateway/src/proxy/signing-key.ts';
import { Api } from './http.ts';
import type { FaultStack } from './stack.ts';

/** One client per gateway replica, straight to its port (as `token`'s holder when given). */
export function gatewayClients(stack: FaultStack, token?: string): Array<{ name: string; api: Api }> {
  return stack.namesOf('gateway').map((name) => ({
    name,
    api: new Api(stack.urlOf(name), { timeoutMs: 10_000, ...(token ? { token } : {}) }),
  }));
}

/**
 * An internal JWT for `audience` (`polls`...) with an anonymous caller, signed with the stack's
 * key as a gateway signs it (ES256, issuer `fieldhouse-gateway`, 60 s): lets the suite call one
 * service replica directly, so a check can name the replica it reads from.
 */
export function anonymousInternalJwt(stack: FaultStack, audience: string): string {
  const key = loadSigningKey(readFileSync(stack.keyFile, 'utf8'));
  return signInternalToken(
    { key, issuer: 'fieldhouse-gateway', ttlSeconds: 60 },
    audience,
    { method: 'anonymous', user: null },
    '127.0.0.1',
  );
}

/**
 * A live-results stream (`GET /api/polls/{id}/results/stream`) held on one process: keeps the
 * last `total_votes` of its `results` events.
 */
export class ResultsWatcher {
  readonly label: string;
  lastTotal = -1;
  status = 0;
  error: string | undefined;
  private readonly req: ClientRequest;

  constructor(label: string, baseUrl: string, pollId: string, headers: Record<string, string> = {}) {
    this.label = label;
    const url = new URL(`/api/polls/${pollId}/results/stream`, baseUrl);
    this.req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      this.status = res.statusCode ?? 0;
      onServerSentEvents(res, (e) => {
        if (e.event !== 'results') return;
        const m = /"total_votes":(\d+)/.exec(e.data);
        if (!m) return;
        this.lastTotal = Number(m[1]);
      });
    });
    this.req.on('error', (err) => (this.error = err.message));
    this.req.end();
  }

  /** Resolves true when the stream has shown `total` (false after `timeoutMs`). */
  async waitFor(total: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (this.lastTotal !== total) {
      if (performance.now() > deadline || this.error) return false;
      await sleep(50);
    }
    return true;
  }

  close(): void {
    this.req.destroy();
  }
}

/** `{a: 3, b: 2}` → `a 3, b 2` (replica names and counts, sorted). */
export const tally = (counts: Map<string, number>) =>
  [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

/** Adds one to `key` in `counts`. */
export const count = (counts: Map<string, number>, key: string) =>
  counts.set(key, (counts.get(key) ?? 0) + 1);
