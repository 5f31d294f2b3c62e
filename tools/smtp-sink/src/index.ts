import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the sink received, as listed by `GET /messages`. */
export interface SinkMessage {
  id: number;
  /** Envelope sender and recipients (what the SMTP client said, not the headers). */
  envelope: { from: string | null; to: string[] };
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
  attachments: Array<{ filename: string | null; contentType: string; size: number }>;
  receivedAt: string;
}

export interface SmtpSink {
  smtpPort: number;
  httpPort: number;
  /** Every message received so far, oldest first. */
  messages: () => SinkMessage[];
  clear: () => void;
  /** Resolves with the first message (received now or later) that matches, or rejects after `timeoutMs`. */
  waitFor: (match: (m: SinkMessage) => boolean, timeoutMs?: number) => Promise<SinkMessage>;
  close: () => Promise<void>;
}

export interface SmtpSinkOptions {
  host?: string;
  /** 0 picks a free port. */
  smtpPort?: number;
  httpPort?: number;
}

/**
 * Starts an SMTP server that accepts every message (any or no credentials, no TLS) and an HTTP
 * API to read them: `GET /messages` (JSON array of {@link SinkMessage}), `DELETE /messages`.
 * For development and tests only: it keeps messages in memory.
 */
export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const host = opts.host ?? '127.0.0.1';
  let store: SinkMessage[] = [];
  let nextId = 1;
  const waiters = new Set<{ match: (m: SinkMessage) => boolean; resolve: (m: SinkMessage) => void }>();

  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    size: 25 * 1024 * 1024,
    onAuth: (_auth, _session, cb) => cb(null, { user: 'sink' }),
    onData: (stream, session, cb) => {
      simpleParser(stream)
        .then((mail) => {
          const message: SinkMessage = {
            id: nextId++,
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : null,
            headers: Object.fromEntries(
              [...mail.headers].map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
            ),
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? null,
              contentType: a.contentType,
              size: a.size,
            })),
            receivedAt: new Date().toISOString(),
          };
          store.push(message);
          for (const w of waiters) {
            if (w.match(message)) {
              waiters.delete(w);
              w.resolve(message);
            }
          }
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(opts.smtpPort ?? 0, host, () => resolve());
  });

  const http: Server = createServer((req, res) => {
    if (req.url === '/healthz' && req.method === 'GET') {
      // Liveness for the local stack's supervisor (docs/reliability.md, "Liveness").
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else if (req.url === '/messages' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(store));
    } else if (req.url === '/messages' && req.method === 'DELETE') {
      store = [];
      res.writeHead(204).end();
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found."}');
    }
  });
  await new Promise<void>((resolve) => http.listen(opts.httpPort ?? 0, host, resolve));

  return {
    smtpPort: (smtp.server.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
    messages: () => [...store],
    clear: () => {
      store = [];
    },
    waitFor: (match, timeoutMs = 10_000) => {
      const found = store.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no matching e-mail within ${timeoutMs} ms`));
        }, timeoutMs).unref();
      });
    },
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
