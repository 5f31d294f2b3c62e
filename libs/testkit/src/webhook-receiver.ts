import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a test receiver got: its headers, the exact body bytes as text, when. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * What the receiver answers to the nth request of a path (1-based): a status (with an empty
 * body), or `hang` (never answers), or a function writing the answer itself.
 */
export type ReceiverAnswer = number | 'hang' | ((res: ServerResponse) => void);

/** A real HTTP receiver of webhook deliveries on loopback, for tests and benchmarks. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`; any path is accepted. */
  url: string;
  /** Every request received, in order. */
  received: ReceivedWebhook[];
  /** Sets the answers of a path's requests, in order; the last repeats (default 204). */
  answer: (path: string, ...answers: ReceiverAnswer[]) => void;
  /** Requests received on a path. */
  on: (path: string) => ReceivedWebhook[];
  close: () => Promise<void>;
}

/** Starts a {@link WebhookReceiver} on a free loopback port. */
export async function startWebhookReceiver(opts: { record?: boolean } = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers = new Map<string, ReceiverAnswer[]>();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      if (opts.record !== false)
        received.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
      const list = answers.get(path) ?? [204];
      const a = list[Math.min(n, list.length) - 1]!;
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof a === 'function') return a(res);
      res.writeHead(a).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (path, ...list) => answers.set(path, list),
    on: (path) => received.filter((r) => r.path === path),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
