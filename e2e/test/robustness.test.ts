import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

type Doc = { paths: Record<string, Record<string, unknown>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const IDS = ['abc', '0', '-1', '99999999999999999999', '1e3', '00000000-0000-0000-0000-000000000000', '%00'];
const BODIES: unknown[] = [
  {},
  [],
  'just a string',
  null,
  { name: { $gt: '' }, email: ['x'], data: 'nope', votes: 5, presence: 'yes', page: -1 },
  { form_version_id: 1e308, data: [{ field_uuid: null, value: {}, type: 42 }] },
];

/**
 * Every route of every OpenAPI document, called through the gateway with junk path ids and
 * junk bodies, by a signed-in user who owns nothing: each answer must be a 4xx problem
 * document, never a 5xx (DEVELOPERS.md: every bad input gets a clear error, never a 500).
 */
describe('robustness: junk input on every documented route never gives a 5xx', () => {
  let stack: TestStack;
  let token: string;
  const routes: Array<{ method: (typeof METHODS)[number]; path: string }> = [];

  before(async () => {
    stack = await startStack({ gatewayEnv: { RATE_LIMIT_IP: '1000000', RATE_LIMIT_USER: '1000000' } });
    token = (await registerUser(stack.gatewayUrl)).token;
    for (const name of ['gateway', 'collection', 'polls', 'events']) {
      const doc = (await request(stack.gatewayUrl).get(`/docs/${name}.json`).expect(200)).body as Doc;
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const method of METHODS) if (ops[method]) routes.push({ method, path });
      }
    }
  });
  after(async () => {
    await stack?.stop();
  });

  it('finds the documented routes of the four components', () => {
    expect(routes.length).to.be.greaterThan(40);
  });

  it('answers junk with 4xx problem documents', async function () {
    this.timeout(120_000);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const limited = new Set<string>();
    for (const { method, path } of routes) {
      if (path.endsWith('/stream')) continue; // Server-Sent Events stay open by design
      if (path === '/api/v1/logout' || path.startsWith('/api/v1/tokens/')) continue; // would sign us out
      for (const id of IDS) {
        const url = path.replace(/\{[^}]+\}/g, id);
        for (const body of method === 'get' || method === 'delete' ? [undefined] : BODIES) {
          let req = request(stack.gatewayUrl)[method](url).auth(token, { type: 'bearer' });
          if (body !== undefined)
            req = req.set('Content-Type', 'application/json').send(JSON.stringify(body));
          const res = await req;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 429) limited.add(`${method.toUpperCase()} ${path}`);
          if (res.status >= 500)
            failures.push(`${method.toUpperCase()} ${url} ${JSON.stringify(body)} -> ${res.status}`);
          else if (path.includes('{') && res.status < 400)
            // The caller owns nothing: a junk or someone else's id never succeeds.
            failures.push(`${method.toUpperCase()} ${url} ${JSON.stringify(body)} -> ${res.status}`);
          else if (res.status >= 400 && !String(res.headers['content-type']).includes('problem+json'))
            failures.push(`${method.toUpperCase()} ${url} -> ${res.status} without a problem document`);
        }
      }
    }
    expect(failures, failures.slice(0, 20).join('\n')).to.deep.equal([]);
    expect(statuses.has(401), 'the caller must stay signed in throughout').to.equal(false);
    // Only the deliberately strict limits may answer 429 here: failed logins, reactions,
    // comments, and the account e-mails (a reset link, a verification link: docs/identity.md).
    const allowed = /login|\/react$|\/comment$|\/password\/forgot$|\/email-verification$/;
    expect(
      [...limited].filter((r) => !allowed.test(r)),
      'the limits must not hide the services',
    ).to.deep.equal([]);
    console.log(
      `      ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests:`,
      Object.fromEntries(statuses),
    );
  });
});
