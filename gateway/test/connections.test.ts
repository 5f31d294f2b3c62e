import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { expect } from 'chai';
import { startTestGateway, type TestGateway } from './support.ts';

/**
 * How the gateway treats a client's connection, on its own routes and on the proxied ones
 * alike (issue 31): RFC 9112 9.6, "A server that receives a "close" connection option MUST
 * initiate closure of the connection after it sends the final response to the request that
 * contained the "close" connection option"; a client that half-closes (shuts its write side
 * down) after a complete request still gets the answer; keep-alive clients keep their socket.
 * Everything goes over raw sockets, so nothing between the test and the gateway decides.
 */

/**
 * A fake service behind the gateway: a keep-alive Node server answering `{"ok":true}` a tick
 * later, or, to `Accept: text/event-stream`, an event stream it keeps open (`streamClosed`
 * resolves when the gateway closes one).
 */
async function startUpstream(): Promise<{ url: string; server: Server; streamClosed: () => Promise<void> }> {
  let closed: Array<() => void> = [];
  const server = createServer((req, res) => {
    if (String(req.headers.accept).includes('text/event-stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('retry: 3000\n\n');
      res.once('close', () => {
        const waiting = closed;
        closed = [];
        waiting.forEach((w) => w());
      });
      return;
    }
    // Later than the request's own tick, as a real service answers after a query.
    setImmediate(() => {
      res.setHeader('content-type', 'application/json');
      // A hop-by-hop header of the upstream's own connection: never the client's business.
      res.setHeader('keep-alive', 'timeout=5');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    streamClosed: () => new Promise<void>((resolve) => closed.push(resolve)),
  };
}

interface RawAnswer {
  status: number;
  /** Header names in lower case; repeated ones joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A raw client connection: `answer()` resolves with the next complete answer (by
 * `Content-Length` or chunked encoding), `closed` when the server ends the connection, with
 * whatever bytes no answer took.
 */
class RawClient {
  private buffer = '';
  private waiting: Array<() => void> = [];
  private ended = false;
  readonly socket: Socket;
  readonly closed: Promise<string>;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake();
        resolve(this.buffer);
      }),
    );
  }

  static async open(url: string): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {}); // a reset shows as `close`, which the tests look at
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    return new RawClient(socket);
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((w) => w());
  }

  /** Sends `GET path` with `headers` (`Host` is added). */
  send(path: string, headers: Record<string, string> = {}): void {
    const lines = [
      `GET ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  }

  /** Resolves once the bytes received so far include `text`. */
  async received(text: string): Promise<void> {
    while (!this.buffer.includes(text)) {
      if (this.ended) throw new Error(`the server closed the connection before ${JSON.stringify(text)}`);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** The next complete answer; rejects when the server closes before one is complete. */
  async answer(): Promise<RawAnswer> {
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.ended)
        throw new Error(
          `the server closed the connection without a complete answer: ${JSON.stringify(this.buffer)}`,
        );
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Removes one complete answer from the buffer, if there is one. */
  private take(): RawAnswer | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const rest = this.buffer.slice(end + 4);
    let body: string;
    let used: number;
    if (headers['transfer-encoding'] === 'chunked') {
      body = '';
      let at = 0;
      for (;;) {
        const eol = rest.indexOf('\r\n', at);
        if (eol === -1) return undefined;
        const size = parseInt(rest.slice(at, eol), 16);
        if (rest.length < eol + 2 + size + 2) return undefined;
        body += rest.slice(eol + 2, eol + 2 + size);
        at = eol + 2 + size + 2;
        if (size === 0) break;
      }
      used = at;
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (rest.length < length) return undefined;
      body = rest.slice(0, length);
      used = length;
    }
    this.buffer = rest.slice(used);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }
}

describe('gateway: client connections (Connection: close, half-close, keep-alive) on proxied and own routes', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let g: TestGateway;

  before(async () => {
    upstream = await startUpstream();
    g = await startTestGateway({
      COLLECTION_URL: upstream.url,
      POLLS_URL: upstream.url,
      EVENTS_URL: upstream.url,
    });
  });
  after(async () => {
    await g?.stop();
    await new Promise((resolve) => upstream?.server.close(resolve));
  });

  // The gateway's own routes, then one path per proxy app: each answer must behave alike.
  const paths = ['/healthz', '/api/v1/anything', '/api/polls/anything', '/api/events/anything'];

  for (const path of paths) {
    it(`GET ${path} with Connection: close is answered with Connection: close, then the socket is closed`, async () => {
      const client = await RawClient.open(g.url);
      client.send(path, { Connection: 'close' });
      const answer = await client.answer();
      expect(answer.status, path).to.equal(200);
      expect(answer.headers.connection, `${path}: the answer's Connection header`).to.equal('close');
      expect(answer.headers, `${path}: the upstream's Keep-Alive header`).to.not.have.property('keep-alive');
      // Resolves only when the gateway ends the connection (RFC 9112 9.6); nothing is left over.
      expect(await client.closed).to.equal('');
    });

    it(`GET ${path} then a half-close (end of the client's writes) still gets the whole answer`, async () => {
      const client = await RawClient.open(g.url);
      client.send(path);
      client.socket.end();
      const answer = await client.answer();
      expect(answer.status, path).to.equal(200);
      expect(answer.body, path).to.not.equal('');
      expect(await client.closed).to.equal('');
    });

    it(`GET ${path} twice on one keep-alive connection: both answered, the socket kept open`, async () => {
      const client = await RawClient.open(g.url);
      try {
        client.send(path);
        const first = await client.answer();
        client.send(path);
        const second = await client.answer();
        expect([first.status, second.status], path).to.deep.equal([200, 200]);
        expect(first.headers.connection, path).to.equal('keep-alive');
        expect(second.headers.connection, path).to.equal('keep-alive');
        // A third request pipelined with Connection: close ends the connection after its answer.
        client.send(path, { Connection: 'close' });
        expect((await client.answer()).headers.connection, path).to.equal('close');
        expect(await client.closed).to.equal('');
      } finally {
        client.socket.destroy();
      }
    });
  }

  it('an event stream ends, upstream too, when its client ends its side of the connection', async () => {
    const client = await RawClient.open(g.url);
    client.send('/api/events/live', { Accept: 'text/event-stream' });
    await client.received('retry: 3000');
    const upstreamClosed = upstream.streamClosed();
    client.socket.end();
    // The gateway ended the stream and the connection, with nothing else sent after the head.
    expect(await client.closed).to.match(/\r\n\r\n[0-9a-f]+\r\nretry: 3000\n\n\r\n$/);
    await upstreamClosed; // and its upstream stream
  });
});
