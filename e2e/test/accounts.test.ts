import { expect } from 'chai';
import request from 'supertest';
import type { Envelope, UserPayload } from '@fieldhouse/contracts';
import { eventually, startSmtpSink, type SinkMessage, type SmtpSink } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { listenToUserEvents, type UserEvents } from './support/user-events.ts';
import { registerUser } from './support/users.ts';

const PUBLIC_URL = 'https://console.example.test';

/** The Set-Cookie value of `name` in a supertest response. */
function cookieValue(res: request.Response, name: string): string | undefined {
  const h = res.headers['set-cookie'] as string | string[] | undefined;
  const line = (h === undefined ? [] : Array.isArray(h) ? h : [h]).find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0]!) : undefined;
}

/** A browser session signed in as `email` (supertest agent) and its CSRF token. */
async function browserSession(gatewayUrl: string, email: string, password: string) {
  const agent = request.agent(gatewayUrl);
  const csrf = await agent.get('/api/v1/csrf-cookie').expect(204);
  const login = await agent
    .post('/api/v1/login')
    .set('X-XSRF-TOKEN', cookieValue(csrf, 'XSRF-TOKEN')!)
    .send({ email, password })
    .expect(200);
  return { agent, xsrf: cookieValue(login, 'XSRF-TOKEN')! };
}

let ip = 0;
/** A client address of its own (TRUST_PROXY=loopback believes X-Forwarded-For from loopback). */
const freshIp = () => `198.51.100.${++ip}`;

/** The secret after `#token=` in an e-mail's text, checking the link's page. */
function linkToken(mail: SinkMessage, page: string): string {
  const m = new RegExp(`${PUBLIC_URL}${page}#token=([A-Za-z0-9_-]+)`).exec(mail.text);
  expect(m, mail.text).to.not.equal(null);
  return m![1]!;
}

describe('accounts: profile, password change and reset, e-mail verification (through the gateway)', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let userEvents: UserEvents | undefined;
  let received: Envelope<UserPayload>[] = [];
  const mailTo = (email: string, subject: RegExp) =>
    sink.waitFor((m) => m.envelope.to.includes(email) && subject.test(m.subject), 10_000);

  before(async () => {
    sink = await startSmtpSink();
    stack = await startStack({
      gatewayEnv: {
        SMTP_URL: `smtp://127.0.0.1:${sink.smtpPort}`,
        PUBLIC_URL: `${PUBLIC_URL}/`,
        ACCOUNT_EMAILS_PER_ADDRESS: '3',
        ACCOUNT_EMAILS_PER_IP: '4',
      },
    });
    userEvents = await listenToUserEvents(stack);
    received = userEvents.received;
  });
  after(async () => {
    await userEvents?.close();
    await stack?.stop();
    await sink?.close();
  });

  it('edits the profile (name, language, time zone) and publishes them in user.updated', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Profile');
    const me = await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(me.body.data).to.include({ language: null, time_zone: null, email_verified_at: null });

    const patched = await request(stack.gatewayUrl)
      .patch('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .send({ name: 'Renamed Person', language: 'fr', time_zone: 'Europe/Paris' })
      .expect(200);
    expect(patched.body.data).to.include({
      name: 'Renamed Person',
      email: alice.email,
      language: 'fr',
      time_zone: 'Europe/Paris',
    });
    const event = await eventually(async () =>
      received.find((m) => m.type === 'user.updated' && m.data.id === alice.id),
    );
    expect(event.data).to.include({ name: 'Renamed Person', language: 'fr', time_zone: 'Europe/Paris' });

    // Bad values: 422 naming the field, nothing changed.
    for (const body of [{ language: 'de' }, { time_zone: 'Mars/Olympus' }, {}, { name: '' }]) {
      const bad = await request(stack.gatewayUrl)
        .patch('/api/v1/me')
        .auth(alice.token, { type: 'bearer' })
        .send(body)
        .expect(422);
      expect(bad.body.code, JSON.stringify(body)).to.equal('validation_failed');
    }
    const bob = await registerUser(stack.gatewayUrl);
    const taken = await request(stack.gatewayUrl)
      .patch('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .send({ email: bob.email.toUpperCase() })
      .expect(422);
    expect(taken.body.code).to.equal('email_in_use');
    expect(taken.body.errors).to.have.property('email');
    const after = await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(after.body.data).to.include({ email: alice.email, language: 'fr', time_zone: 'Europe/Paris' });
    // A signed-out caller cannot.
    await request(stack.gatewayUrl).patch('/api/v1/me').send({ name: 'x' }).expect(401);
  });

  it('verifies the e-mail of a new account with a single-use link; a changed address needs it again', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Verify');
    const mail = await mailTo(alice.email, /Confirm your e-mail/);
    const token = linkToken(mail, '/verify-email');
    expect(mail.html).to.include(`${PUBLIC_URL}/verify-email#token=${token}`);
    await request(stack.gatewayUrl).post('/api/v1/email/verify').send({ token }).expect(204);
    const me = await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(me.body.data.email_verified_at).to.be.a('string');
    // Services learn it (address-based grants, such as invitations by e-mail, can wait for it).
    const created = await eventually(async () =>
      received.find((m) => m.type === 'user.created' && m.data.id === alice.id),
    );
    expect(created.data.email_verified).to.equal(false);
    await eventually(async () =>
      received.find(
        (m) => m.type === 'user.updated' && m.data.id === alice.id && m.data.email_verified === true,
      ),
    );
    // Single use.
    const again = await request(stack.gatewayUrl).post('/api/v1/email/verify').send({ token }).expect(422);
    expect(again.body.code).to.equal('verification_link_invalid');
    const junk = await request(stack.gatewayUrl)
      .post('/api/v1/email/verify')
      .send({ token: 'nope' })
      .expect(422);
    expect(junk.body.code).to.equal('verification_link_invalid');
    // Verified already: "send again" sends nothing.
    await request(stack.gatewayUrl)
      .post('/api/v1/me/email-verification')
      .auth(alice.token, { type: 'bearer' })
      .expect(204);

    // A new address is unverified, and its link goes to the new address in the user's language.
    await request(stack.gatewayUrl)
      .patch('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .send({ language: 'fr' })
      .expect(200);
    const newEmail = `moved${Date.now()}@example.test`;
    const moved = await request(stack.gatewayUrl)
      .patch('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .send({ email: `  ${newEmail.toUpperCase()} ` })
      .expect(200);
    expect(moved.body.data).to.include({ email: newEmail, email_verified_at: null });
    const second = await mailTo(newEmail, /Confirmez votre adresse/);
    const secondToken = linkToken(second, '/verify-email');
    // Moving on again before using it: the link was for the previous address and no longer verifies.
    await request(stack.gatewayUrl)
      .patch('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .send({ email: `again.${newEmail}` })
      .expect(200);
    const stale = await request(stack.gatewayUrl)
      .post('/api/v1/email/verify')
      .send({ token: secondToken })
      .expect(422);
    expect(stale.body.code).to.equal('verification_link_invalid');
  });

  it('limits "send again" per user', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    for (let i = 0; i < 3; i++)
      await request(stack.gatewayUrl)
        .post('/api/v1/me/email-verification')
        .auth(alice.token, { type: 'bearer' })
        .expect(202);
    const limited = await request(stack.gatewayUrl)
      .post('/api/v1/me/email-verification')
      .auth(alice.token, { type: 'bearer' })
      .expect(429);
    expect(limited.body.code).to.equal('rate_limited');
    expect(Number(limited.headers['retry-after'])).to.be.above(0);
  });

  it('changes the password with the current one; other browser sessions end, this one and tokens stay', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    const a = await browserSession(stack.gatewayUrl, alice.email, alice.password);
    const b = await browserSession(stack.gatewayUrl, alice.email, alice.password);

    const wrong = await a.agent
      .put('/api/v1/me/password')
      .set('X-XSRF-TOKEN', a.xsrf)
      .send({ current_password: 'not it at all', password: 'a brand new secret' })
      .expect(422);
    expect(wrong.body.code).to.equal('current_password_incorrect');
    expect(wrong.body.errors).to.have.property('current_password');
    const short = await a.agent
      .put('/api/v1/me/password')
      .set('X-XSRF-TOKEN', a.xsrf)
      .send({ current_password: alice.password, password: 'short' })
      .expect(422);
    expect(short.body.errors).to.have.property('password');
    await b.agent.get('/api/v1/me').expect(200); // refusals end nothing

    await a.agent
      .put('/api/v1/me/password')
      .set('X-XSRF-TOKEN', a.xsrf)
      .send({
        current_password: alice.password,
        password: 'a brand new secret',
        password_confirmation: 'a brand new secret',
      })
      .expect(204);
    await a.agent.get('/api/v1/me').expect(200);
    await b.agent.get('/api/v1/me').expect(401);
    await request(stack.gatewayUrl).get('/api/v1/me').auth(alice.token, { type: 'bearer' }).expect(200);
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .set('X-Forwarded-For', freshIp())
      .send({ email: alice.email, password: alice.password })
      .expect(401);
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email, password: 'a brand new secret' })
      .expect(200);
  });

  it('resets a forgotten password by a single-use e-mailed link, answering unknown addresses alike', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Reset');
    const session = await browserSession(stack.gatewayUrl, alice.email, alice.password);
    const unknown = `nobody${Date.now()}@example.test`;

    const forUnknown = await request(stack.gatewayUrl)
      .post('/api/v1/password/forgot')
      .set('X-Forwarded-For', freshIp())
      .send({ email: unknown })
      .expect(202);
    const forKnown = await request(stack.gatewayUrl)
      .post('/api/v1/password/forgot')
      .set('X-Forwarded-For', freshIp())
      .send({ email: ` ${alice.email.toUpperCase()}` })
      .expect(202);
    expect(forKnown.body).to.deep.equal(forUnknown.body);
    expect(forKnown.headers['content-length']).to.equal(forUnknown.headers['content-length']);

    const mail = await mailTo(alice.email, /Reset your Fieldhouse password/);
    expect(sink.messages().some((m) => m.envelope.to.includes(unknown))).to.equal(false);
    const token = linkToken(mail, '/reset-password');
    // Only the hash is stored, with 30 minutes of validity.
    const rows = await stack
      .identityDb('account_links')
      .where({ user_id: alice.id, purpose: 'password_reset' });
    expect(rows).to.have.length(1);
    expect(rows[0].token_hash).to.not.include(token);
    expect(JSON.stringify(rows)).to.not.include(token);
    expect(rows[0].expires_at.getTime() - rows[0].created_at.getTime()).to.equal(30 * 60_000);

    const short = await request(stack.gatewayUrl)
      .post('/api/v1/password/reset')
      .send({ token, password: 'short' })
      .expect(422);
    expect(short.body.errors).to.have.property('password');
    await request(stack.gatewayUrl)
      .post('/api/v1/password/reset')
      .send({ token, password: 'reset and renewed', password_confirmation: 'reset and renewed' })
      .expect(204);
    // Every browser session ended; the token stays; the new password works, the old one not.
    await session.agent.get('/api/v1/me').expect(401);
    const me = await request(stack.gatewayUrl)
      .get('/api/v1/me')
      .auth(alice.token, { type: 'bearer' })
      .expect(200);
    expect(me.body.data.email_verified_at, 'the link proved the address').to.be.a('string');
    // ...and the services hear it (what takes up an invitation waiting for the address)
    await eventually(async () =>
      received.find(
        (m) => m.type === 'user.updated' && m.data.id === alice.id && m.data.email_verified === true,
      ),
    );
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email, password: 'reset and renewed' })
      .expect(200);
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .set('X-Forwarded-For', freshIp())
      .send({ email: alice.email, password: alice.password })
      .expect(401);
    // Single use.
    const reused = await request(stack.gatewayUrl)
      .post('/api/v1/password/reset')
      .send({ token, password: 'yet another one' })
      .expect(422);
    expect(reused.body.code).to.equal('reset_link_invalid');
  });

  it('refuses a reset link 30 minutes after it was made, and an older link once a newer one is sent', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    await request(stack.gatewayUrl)
      .post('/api/v1/password/forgot')
      .set('X-Forwarded-For', freshIp())
      .send({ email: alice.email })
      .expect(202);
    const first = linkToken(await mailTo(alice.email, /Reset your/), '/reset-password');
    sink.clear();
    await request(stack.gatewayUrl)
      .post('/api/v1/password/forgot')
      .set('X-Forwarded-For', freshIp())
      .send({ email: alice.email })
      .expect(202);
    const second = linkToken(await mailTo(alice.email, /Reset your/), '/reset-password');
    const replaced = await request(stack.gatewayUrl)
      .post('/api/v1/password/reset')
      .send({ token: first, password: 'one new password' })
      .expect(422);
    expect(replaced.body.code).to.equal('reset_link_invalid');

    // Made 30 minutes and a second ago (the stored instants moved back): expired.
    await stack
      .identityDb('account_links')
      .where({ user_id: alice.id, purpose: 'password_reset' })
      .whereNull('used_at')
      .update({
        created_at: stack.identityDb.raw("created_at - interval '30 minutes 1 second'"),
        expires_at: stack.identityDb.raw("expires_at - interval '30 minutes 1 second'"),
      });
    const expired = await request(stack.gatewayUrl)
      .post('/api/v1/password/reset')
      .send({ token: second, password: 'one new password' })
      .expect(422);
    expect(expired.body.code).to.equal('reset_link_invalid');
    await request(stack.gatewayUrl)
      .post('/api/v1/login')
      .send({ email: alice.email, password: alice.password })
      .expect(200);
  });

  it('limits reset requests per e-mail (known or not, alike) and per client address', async () => {
    const alice = await registerUser(stack.gatewayUrl);
    for (const email of [alice.email, `ghost${Date.now()}@example.test`]) {
      for (let i = 0; i < 3; i++)
        await request(stack.gatewayUrl)
          .post('/api/v1/password/forgot')
          .set('X-Forwarded-For', freshIp())
          .send({ email })
          .expect(202);
      const limited = await request(stack.gatewayUrl)
        .post('/api/v1/password/forgot')
        .set('X-Forwarded-For', freshIp())
        .send({ email })
        .expect(429);
      expect(limited.body.code).to.equal('rate_limited');
    }
    const address = freshIp();
    for (let i = 0; i < 4; i++)
      await request(stack.gatewayUrl)
        .post('/api/v1/password/forgot')
        .set('X-Forwarded-For', address)
        .send({ email: `spray${i}.${Date.now()}@example.test` })
        .expect(202);
    const limited = await request(stack.gatewayUrl)
      .post('/api/v1/password/forgot')
      .set('X-Forwarded-For', address)
      .send({ email: `spray-last.${Date.now()}@example.test` })
      .expect(429);
    expect(Number(limited.headers['retry-after'])).to.be.above(0);
    const bad = await request(stack.gatewayUrl)
      .post('/api/v1/password/forgot')
      .set('X-Forwarded-For', freshIp())
      .send({ email: 'not an address' })
      .expect(422);
    expect(bad.body.code).to.equal('validation_failed');
  });
});
