import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

/** The `frame-ancestors` sources of a CSP header, or undefined when it has none. */
const frameAncestors = (csp: string | undefined) =>
  csp
    ?.split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('frame-ancestors'))
    ?.split(/\s+/)
    .slice(1);

describe('poll embed page: framing by the origins the poll allows (e2e, gateway serving the console)', () => {
  let stack: TestStack;
  let owner: ReturnType<typeof gatewayClient>;
  let pollId: string;
  let closedPollId: string;
  before(async () => {
    // The gateway serves any console build the same way: a one-file build is enough here.
    const consoleDir = mkdtempSync(join(tmpdir(), 'console-embed-'));
    writeFileSync(
      join(consoleDir, 'index.html'),
      '<!doctype html><title>Fieldhouse</title><div id="root"></div>',
    );
    stack = await startStack({
      gatewayEnv: { CONSOLE_DIR: consoleDir, RATE_LIMIT_IP: '100000', RATE_LIMIT_USER: '100000' },
    });
    const alice = await registerUser(stack.gatewayUrl, 'Alice Owner');
    owner = gatewayClient(stack.gatewayUrl, alice.token);
    const body = (embed_origins: string[]) => ({
      title: 'Lunch',
      sections: [{ title: 'Where', options: [{ label: 'Pizza' }, { label: 'Sushi' }] }],
      settings: { embed_origins },
    });
    pollId = (
      await owner
        .post('/api/polls')
        .send(body(['https://news.example.org', 'http://localhost:5173']))
        .expect(201)
    ).body.data.id;
    closedPollId = (await owner.post('/api/polls').send(body([])).expect(201)).body.data.id;
  });
  after(async () => {
    await stack?.stop();
  });

  const page = (path: string) => request(stack.gatewayUrl).get(path).set('Accept', 'text/html').expect(200);

  it("lets the poll's origins frame its embed page: frame-ancestors names them, no X-Frame-Options", async () => {
    const res = await page(`/p/${pollId}/embed`);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(frameAncestors(res.headers['content-security-policy'])).to.deep.equal([
      "'self'",
      'https://news.example.org',
      'http://localhost:5173',
    ]);
    expect(res.headers).to.not.have.property('x-frame-options');
    // The rest of helmet's policy is unchanged.
    expect(res.headers['content-security-policy']).to.include("default-src 'self'");
    expect(res.headers['content-security-policy']).to.include("object-src 'none'");
  });

  it('keeps refusing framing on every other page, the voting and results pages of the same poll included', async () => {
    for (const path of [
      `/p/${pollId}`,
      `/p/${pollId}/results`,
      '/polls',
      '/sign-in',
      `/p/${pollId}/embed/more`,
    ]) {
      const res = await request(stack.gatewayUrl).get(path).set('Accept', 'text/html');
      expect(frameAncestors(res.headers['content-security-policy']), path).to.deep.equal(["'self'"]);
      expect(res.headers['x-frame-options'], path).to.equal('SAMEORIGIN');
    }
  });

  it('keeps refusing framing on the embed page of a poll that names no origin, and of an unknown poll', async () => {
    for (const id of [closedPollId, '00000000-0000-4000-8000-000000000000', '%E0%A4%A']) {
      const res = await page(`/p/${id}/embed`);
      expect(frameAncestors(res.headers['content-security-policy']), id).to.deep.equal(["'self'"]);
      expect(res.headers['x-frame-options'], id).to.equal('SAMEORIGIN');
    }
  });

  it("follows the owner's edit of the origins within the gateway's cache time (5 s)", async () => {
    await owner
      .put(`/api/polls/${closedPollId}`)
      .send({ settings: { embed_origins: ['https://blog.example.com'] } })
      .expect(200);
    const started = Date.now();
    let sources: string[] | undefined;
    while (Date.now() - started < 8_000) {
      sources = frameAncestors((await page(`/p/${closedPollId}/embed`)).headers['content-security-policy']);
      if (sources?.includes('https://blog.example.com')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(sources).to.deep.equal(["'self'", 'https://blog.example.com']);
  });
});
