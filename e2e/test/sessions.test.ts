import { expect } from 'chai';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

/** The Set-Cookie lines of a supertest response. */
const setCookies = (res: request.Response): string[] => {
  const h = res.headers['set-cookie'] as string | string[] | undefined;
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
};

/** The value of a Set-Cookie cookie in a supertest response. */
function cookieValue(res: request.Response, name: string): string | undefined {
  const raw = setCookies(res);
  const line = raw.find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0]!) : undefined;
}

describe('browser sessions with CSRF (through the gateway)', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('signs a SPA in with a session cookie and requires the CSRF header on unsafe requests', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const agent = request.agent(stack.gatewayUrl);

    const csrf = await agent.get('/api/v1/csrf-cookie').expect(204);
    const guestXsrf = cookieValue(csrf, 'XSRF-TOKEN');
    const sessionLine = setCookies(csrf).find((c) => c.startsWith('fieldhouse_session='));
    expect(sessionLine).to.match(/HttpOnly/i);
    expect(guestXsrf).to.be.a('string');

    // Login from the SPA: the guest session carries a CSRF token, so the header is needed.
    await agent.post('/api/v1/login').send({ email: alice.email, password: alice.password }).expect(403);
    const login = await agent
      .post('/api/v1/login')
      .set('X-XSRF-TOKEN', guestXsrf!)
      .send({ email: alice.email, password: alice.password })
      .expect(200);
    const xsrf = cookieValue(login, 'XSRF-TOKEN');
    expect(xsrf).to.be.a('string').and.not.equal(guestXsrf);

    // Cookie authentication works for reads without any header.
    const me = await agent.get('/api/v1/me').expect(200);
    expect(me.body.data.id).to.equal(alice.id);

    // Unsafe request by cookie: 403 without the header, 403 with a wrong one, 201 with the right one.
    const denied = await agent.post('/api/v1/tokens').send({ name: 'x' }).expect(403);
    expect(denied.body.code).to.equal('csrf_token_mismatch');
    expect(denied.headers['content-type']).to.match(/problem\+json/);
    await agent.post('/api/v1/tokens').set('X-CSRF-TOKEN', 'wrong').send({ name: 'x' }).expect(403);
    await agent.post('/api/v1/tokens').set('X-CSRF-TOKEN', xsrf!).send({ name: 'x' }).expect(201);
    await agent.post('/api/v1/tokens').set('X-XSRF-TOKEN', xsrf!).send({ name: 'y' }).expect(201);

    // Cookie-authenticated requests reach the services as that user (the cookie itself is not forwarded).
    const who = await agent.get('/api/events/_whoami').expect(200);
    expect(who.body.data).to.include({ userId: alice.id, method: 'session' });

    // Logout ends the session.
    await agent.post('/api/v1/logout').set('X-XSRF-TOKEN', xsrf!).expect(204);
    await agent.get('/api/v1/me').expect(401);
  });

  it('signs a SPA in at registration too, under a new session id', async () => {
    const agent = request.agent(stack.gatewayUrl);
    const csrf = await agent.get('/api/v1/csrf-cookie').expect(204);
    const guestXsrf = cookieValue(csrf, 'XSRF-TOKEN');
    const guestSession = cookieValue(csrf, 'fieldhouse_session');
    const email = `spa${Date.now()}@example.test`;
    const registered = await agent
      .post('/api/v1/register')
      .set('X-XSRF-TOKEN', guestXsrf!)
      .send({ name: 'Spa', email, password: 'correct horse battery' })
      .expect(201);
    expect(registered.body.user.email).to.equal(email);
    const session = cookieValue(registered, 'fieldhouse_session');
    expect(session, 'a new session id').to.be.a('string').and.not.equal(guestSession);
    const me = await agent.get('/api/v1/me').expect(200);
    expect(me.body.data.email).to.equal(email);
    // Registering with a bearer client (no session) sets no cookie.
    const plain = await request(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Api', email: `api${Date.now()}@example.test`, password: 'correct horse battery' })
      .expect(201);
    expect(setCookies(plain)).to.deep.equal([]);
  });

  it("lists the caller's browser sessions and ends one, or every other one", async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const signIn = async () => {
      const agent = request.agent(stack.gatewayUrl);
      const csrf = await agent.get('/api/v1/csrf-cookie').set('User-Agent', 'Browser A').expect(204);
      const login = await agent
        .post('/api/v1/login')
        .set('X-XSRF-TOKEN', cookieValue(csrf, 'XSRF-TOKEN')!)
        .set('User-Agent', 'Browser A')
        .send({ email: alice.email, password: alice.password })
        .expect(200);
      return { agent, xsrf: cookieValue(login, 'XSRF-TOKEN')! };
    };
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    const listed = await a.agent.get('/api/v1/sessions').expect(200);
    expect(listed.body.pagination.total).to.equal(3);
    const sessions = listed.body.data as Array<{ id: string; current: boolean; user_agent: string }>;
    expect(sessions.filter((s) => s.current)).to.have.length(1);
    expect(sessions[0]!.user_agent).to.equal('Browser A');
    for (const s of sessions) expect(s.id).to.match(/^[0-9a-f]{24}$/);
    // Never the cookie or its hash.
    expect(JSON.stringify(listed.body)).to.not.contain(cookieValue(listed, 'fieldhouse_session') ?? '\u0000');

    // End one other session by id: that agent is signed out, the others are not.
    const bId = ((await b.agent.get('/api/v1/sessions').expect(200)).body.data as typeof sessions).find(
      (s) => s.current,
    )!.id;
    await a.agent.delete(`/api/v1/sessions/${bId}`).expect(403); // the CSRF header is required
    await a.agent.delete(`/api/v1/sessions/${bId}`).set('X-XSRF-TOKEN', a.xsrf).expect(204);
    await b.agent.get('/api/v1/me').expect(401);
    await c.agent.get('/api/v1/me').expect(200);
    await a.agent.delete(`/api/v1/sessions/${bId}`).set('X-XSRF-TOKEN', a.xsrf).expect(404);
    await a.agent.delete('/api/v1/sessions/not-an-id').set('X-XSRF-TOKEN', a.xsrf).expect(404);

    // Sign out everywhere else: c ends, a stays.
    await a.agent.delete('/api/v1/sessions/others').set('X-XSRF-TOKEN', a.xsrf).expect(204);
    await c.agent.get('/api/v1/me').expect(401);
    await a.agent.get('/api/v1/me').expect(200);
    const left = await a.agent.get('/api/v1/sessions').expect(200);
    expect(left.body.data).to.have.length(1);
    expect(left.body.data[0].current).to.equal(true);
    // Another user's session id is unknown to this one.
    const bob = await registerUser(stack.gatewayUrl);
    await request(stack.gatewayUrl)
      .delete(`/api/v1/sessions/${left.body.data[0].id}`)
      .auth(bob.token, { type: 'bearer' })
      .expect(404);
  });

  it('needs no CSRF header for bearer-token requests, even with a stale cookie', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    await request(stack.gatewayUrl)
      .post('/api/v1/tokens')
      .set('Cookie', 'fieldhouse_session=stale')
      .auth(alice.token, { type: 'bearer' })
      .send({ name: 'ci' })
      .expect(201);
  });
});
