import { expect } from 'chai';
import { eventually, startSmtpSink, type SinkMessage, type SmtpSink } from '@fieldhouse/testkit';
import { startCollectionWorkers } from './support/collection-workers.ts';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

/** The secret of the gateway's verification link (`/verify-email#token=...`) in an e-mail. */
const verificationToken = (mail: SinkMessage) => /\/verify-email#token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

describe('workspace invitations by e-mail through the gateway (real services and workers)', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let stopWorkers: (() => Promise<void>) | undefined;
  /** Confirms `email` as its owner does: the link of the gateway's e-mail, then its endpoint. */
  const verify = async (email: string) => {
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes(email) && /Confirm your/.test(m.subject),
      15_000,
    );
    await gatewayClient(stack.gatewayUrl)
      .post('/api/v1/email/verify')
      .send({ token: verificationToken(mail) })
      .expect(204);
  };
  before(async () => {
    sink = await startSmtpSink();
    // the gateway's account e-mails (verification links) go to the sink too; bearer tokens are
    // looked up on every request, so the JWT says "verified" from the very next one
    stack = await startStack({
      gatewayEnv: { SMTP_URL: `smtp://127.0.0.1:${sink.smtpPort}`, TOKEN_CACHE_SECONDS: '0' },
    });
    stopWorkers = await startCollectionWorkers(stack, sink);
  });
  after(async () => {
    await stopWorkers?.();
    await sink?.close();
    await stack?.stop();
  });

  it('e-mails an invitation to an address with no account, which becomes a member with its role once it registers and confirms the address', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Olga');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Wells survey' }).expect(201)).body.data
      .id as number;
    const email = `invitee${Date.now()}@example.test`;
    const inv = await o
      .post(`/api/v1/workspaces/${ws}/invitations`)
      .send({ email, role: 'manager' })
      .expect(201);
    expect(inv.body.data).to.include({
      status: 'pending',
      email,
      role: 'manager',
      invited_by_name: 'Alice Olga',
    });
    const mail = await sink.waitFor((m) => m.envelope.to.includes(email), 15_000);
    expect(mail.text).to.include('Alice Olga invites you to the workspace "Wells survey"');
    expect(mail.text).to.include(`/register?next=${encodeURIComponent(`/workspaces/${ws}`)}`);

    // the invitee registers through the gateway: anyone could, so nothing is granted yet, neither
    // at their first request (JWT email_verified: false) nor by their user.created
    const res = await gatewayClient(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Ivan Invitee', email, password: 'correct horse battery' })
      .expect(201);
    const invitee = res.body as { token: string; user: { id: number } };
    const asInvitee = gatewayClient(stack.gatewayUrl, invitee.token);
    expect((await asInvitee.get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal([]);
    await asInvitee.get(`/api/v1/workspaces/${ws}`).expect(404);
    await eventually(() => stack.collection.db('users').where({ id: invitee.user.id }).first());
    expect((await asInvitee.get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal([]);
    expect(
      await stack.collection.db('workspace_members').where({ workspace_id: ws, user_id: invitee.user.id }),
    ).to.have.length(0);
    expect((await o.get(`/api/v1/workspaces/${ws}/invitations`).expect(200)).body.data).to.have.length(1);

    // they open the verification link of the gateway's e-mail: now a member with the invited role
    await verify(email);
    const member = await eventually(async () => {
      const members = (await o.get(`/api/v1/workspaces/${ws}/members`).expect(200)).body.data as Array<{
        user_id: number;
        role: string;
        name: string;
      }>;
      return members.find((m) => m.user_id === invitee.user.id);
    });
    expect(member).to.include({ role: 'manager', name: 'Ivan Invitee' });
    const theirs = await asInvitee.get('/api/v1/workspaces').expect(200);
    expect(theirs.body.data.map((w: { id: number; role: string }) => [w.id, w.role])).to.deep.equal([
      [ws, 'manager'],
    ]);
    expect((await o.get(`/api/v1/workspaces/${ws}/invitations`).expect(200)).body.data).to.deep.equal([]);
    // inviting them again is refused in the service's words, with no second membership
    const again = await o
      .post(`/api/v1/workspaces/${ws}/invitations`)
      .send({ email, role: 'viewer' })
      .expect(422);
    expect(again.body.code).to.equal('already_member');
    const rows = await stack.collection
      .db('workspace_members')
      .where({ workspace_id: ws, user_id: invitee.user.id });
    expect(rows).to.have.length(1);
  });

  it('adds an address that has an account at once, and a revoked invitation makes no member', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Otto');
    const bob = await registerUser(stack.gatewayUrl, 'Bob Known');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Clinic' }).expect(201)).body.data
      .id as number;
    // once Kim's user.created has reached the collection service, her address is known
    await eventually(() => stack.collection.db('users').where({ id: bob.id }).first());
    const added = await o
      .post(`/api/v1/workspaces/${ws}/invitations`)
      .send({ email: bob.email, role: 'viewer' })
      .expect(201);
    expect(added.body.data.status).to.equal('accepted');
    expect(added.body.data.member).to.include({ user_id: bob.id, role: 'viewer', name: 'Bob Known' });
    const email = `revoked${Date.now()}@example.test`;
    const inv = await o
      .post(`/api/v1/workspaces/${ws}/invitations`)
      .send({ email, role: 'admin' })
      .expect(201);
    await o.delete(`/api/v1/workspaces/${ws}/invitations/${inv.body.data.id}`).expect(204);
    const res = await gatewayClient(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Rita Revoked', email, password: 'correct horse battery' })
      .expect(201);
    const rita = gatewayClient(stack.gatewayUrl, res.body.token);
    await verify(email);
    // her first request through the gateway, address confirmed: known to the service, and still no member
    expect((await rita.get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal([]);
    await rita.get(`/api/v1/workspaces/${ws}`).expect(404);
  });

  it("takes an invitation up from the gateway's JWT alone (no user events), once a password reset proves the address", async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Pia');
    const o = gatewayClient(stack.gatewayUrl, alice.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Boreholes' }).expect(201)).body.data
      .id as number;
    // the users projection stops: only the JWT claims of each request reach the service now
    await stopWorkers?.();
    stopWorkers = undefined;
    const email = `reset${Date.now()}@example.test`;
    await o.post(`/api/v1/workspaces/${ws}/invitations`).send({ email, role: 'collector' }).expect(201);
    const res = await gatewayClient(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Rui Reset', email, password: 'correct horse battery' })
      .expect(201);
    const rui = gatewayClient(stack.gatewayUrl, res.body.token);
    expect((await rui.get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal([]);
    // a forgotten password: the reset link reached the address, which now counts as verified
    await gatewayClient(stack.gatewayUrl).post('/api/v1/password/forgot').send({ email }).expect(202);
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes(email) && /Reset your/.test(m.subject),
      15_000,
    );
    const token = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    await gatewayClient(stack.gatewayUrl)
      .post('/api/v1/password/reset')
      .send({ token, password: 'a brand new secret', password_confirmation: 'a brand new secret' })
      .expect(204);
    const mine = await rui.get('/api/v1/workspaces').expect(200);
    expect(mine.body.data.map((w: { id: number; role: string }) => [w.id, w.role])).to.deep.equal([
      [ws, 'collector'],
    ]);
  });
});
