import { Agent, createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { eventually, onServerSentEvents, testLogger } from '@fieldhouse/testkit';
import { SharedStreams } from '../src/proxy/shared-streams.ts';

/** Starts a server on a free loopback port; resolves with its base URL. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * SharedStreams against real sockets: an upstream of the test's own (it answers as the test
 * says) and a front server that attaches every request to one sharing key.
 */
describe('gateway: shared upstream snapshot streams (real sockets)', () => {
  const agent = new Agent({ keepAlive: false });
  let upstreamCalls = 0;
  let upstreamAnswer: (res: ServerResponse) => void;
  const upstreamClients: ServerResponse[] = [];
  const upstream = createServer((_req, res) => {
    upstreamCalls++;
    upstreamClients.push(res);
    upstreamAnswer(res);
  });
  let front: Server;
  let frontUrl: string;
  before(async () => {
    const upstreamUrl = await listen(upstream);
    const shared = new SharedStreams({
      service: 'polls',
      agent,
      timeoutMs: 5_000,
      writesPerSecond: 1_000_000,
      logger: testLogger('gateway'),
    });
    front = createServer((req, res) =>
      shared.attach({ key: 'k', url: `${upstreamUrl}/s`, headers: {} }, res),
    );
    frontUrl = await listen(front);
  });
  beforeEach(() => {
    upstreamCalls = 0;
    upstreamClients.length = 0;
  });
  after(async () => {
    agent.destroy();
    front.closeAllConnections();
    upstream.closeAllConnections();
    await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => upstream.close(r))]);
  });

  const open = () =>
    new Promise<IncomingMessage>((resolve, reject) => get(frontUrl, resolve).on('error', reject));

  it('feeds every client from one upstream request; a late client gets the newest snapshot at once', async () => {
    upstreamAnswer = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 3000\n\nevent: results\ndata: 1\n\n');
    };
    const seen: string[][] = [[], [], []];
    const first = await Promise.all([open(), open()]);
    first.forEach((res, i) => onServerSentEvents(res, (e) => seen[i]!.push(e.data)));
    await eventually(async () => seen[0]!.length === 1 && seen[1]!.length === 1, 20_000);
    upstreamClients[0]!.write('event: results\ndata: 2\n\n');
    await eventually(async () => seen[0]!.at(-1) === '2' && seen[1]!.at(-1) === '2', 20_000);
    const late = await open();
    onServerSentEvents(late, (e) => seen[2]!.push(e.data));
    await eventually(async () => seen[2]!.length === 1, 20_000);
    expect(seen[2]).to.deep.equal(['2']);
    expect(upstreamCalls).to.equal(1);
    for (const res of [...first, late]) res.destroy();
    // The upstream request goes with its last client.
    await eventually(async () => upstreamClients[0]!.destroyed || upstreamClients[0]!.writableEnded, 20_000);
  });

  it("relays an upstream's refusal to the clients that waited for it", async () => {
    upstreamAnswer = (res) => {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end('{"status":404}');
    };
    const res = await open();
    expect(res.statusCode).to.equal(404);
    let body = '';
    res.setEncoding('utf8').on('data', (c: string) => (body += c));
    await new Promise((r) => res.once('end', r));
    expect(JSON.parse(body)).to.deep.equal({ status: 404 });
  });

  it('answers 502 (and frees the key) when the upstream is cut off in the middle of its refusal', async () => {
    upstreamAnswer = (res) => {
      res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': '100' });
      res.write('{"stat');
      setTimeout(() => res.destroy(), 20);
    };
    const res = await open();
    expect(res.statusCode).to.equal(502);
    // The next client gets a fresh upstream request.
    upstreamAnswer = (r) => {
      r.writeHead(200, { 'content-type': 'text/event-stream' });
      r.write('event: results\ndata: 3\n\n');
    };
    const next = await open();
    expect(next.statusCode).to.equal(200);
    next.destroy();
    res.destroy();
  });
});
