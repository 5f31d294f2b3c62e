import { expect } from 'chai';
import { eventually, startSmtpSink, type SmtpSink } from '@fieldhouse/testkit';
import { startCollectionWorkers } from './support/collection-workers.ts';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

describe('workspace invitations by e-mail through the gateway (real services and workers)', () => {
  let stack: TestStack;
  let sink: SmtpSink;
  let stopWorkers: () => Promise<void>;
  before(async () => {
    stack = await startStack();
    sink = await startSmtpSink();
    stopWorkers = await startCollectionWorkers(stack, sink);
  });
  after(async () => {
    await stopWorkers?.();
    await sink?.close();
    await stack?.stop();
  });

  it('e-mails an invitation to an address with no account, which becomes a member with its role on registering', async () => {
    const owner = await registerUser(stack.gatewayUrl, 'Olga Owner');
    const o = gatewayClient(stack.gatewayUrl, owner.token);
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
      invited_by_name: 'Olga Owner',
    });
    const mail = await sink.waitFor((m) => m.envelope.to.includes(email), 15_000);
    expect(mail.text).to.include('Olga Owner invites you to the workspace "Wells survey"');
    expect(mail.text).to.include(`/register?next=${encodeURIComponent(`/workspaces/${ws}`)}`);

    // the invitee registers through the gateway: its user.created reaches the collection service
    const res = await gatewayClient(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Ivan Invitee', email, password: 'correct horse battery' })
      .expect(201);
    const invitee = res.body as { token: string; user: { id: number } };
    const member = await eventually(async () => {
      const members = (await o.get(`/api/v1/workspaces/${ws}/members`).expect(200)).body.data as Array<{
        user_id: number;
        role: string;
        name: string;
      }>;
      return members.find((m) => m.user_id === invitee.user.id);
    });
    expect(member).to.include({ role: 'manager', name: 'Ivan Invitee' });
    const theirs = await gatewayClient(stack.gatewayUrl, invitee.token).get('/api/v1/workspaces').expect(200);
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
    const owner = await registerUser(stack.gatewayUrl, 'Otto Owner');
    const known = await registerUser(stack.gatewayUrl, 'Kim Known');
    const o = gatewayClient(stack.gatewayUrl, owner.token);
    const ws = (await o.post('/api/v1/workspaces').send({ name: 'Clinic' }).expect(201)).body.data
      .id as number;
    // once Kim's user.created has reached the collection service, her address is known
    await eventually(() => stack.collection.db('users').where({ id: known.id }).first());
    const added = await o
      .post(`/api/v1/workspaces/${ws}/invitations`)
      .send({ email: known.email, role: 'viewer' })
      .expect(201);
    expect(added.body.data.status).to.equal('accepted');
    expect(added.body.data.member).to.include({ user_id: known.id, role: 'viewer', name: 'Kim Known' });
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
    // her first request through the gateway: known to the service, and still no member
    expect((await rita.get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal([]);
    await rita.get(`/api/v1/workspaces/${ws}`).expect(404);
  });
});
