import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createMailer, type Mailer } from '@fieldhouse/mail';
import { Broker, inTransactionWith, OutboxRelay } from '@fieldhouse/messaging';
import { backingUrl, randomPrefix, startSmtpSink, testLogger, type SmtpSink } from '@fieldhouse/testkit';
import { applyUserEvent } from '../src/domain/invitation-acceptance.ts';
import { startCollectionEmailWorker } from '../src/workers/email.ts';
import { cast, seen, startHarness, type Harness, type TestUser } from './harness.ts';

/**
 * A `user.created` / `user.updated` event of the gateway for `user` with the address `email`,
 * applied as the users worker does; the address verified unless `extra` says otherwise.
 */
const registered = (h: Harness, user: TestUser, email: string, extra: object = {}) =>
  applyUserEvent({ inTransaction: inTransactionWith(h.db, 'outbox') }, randomUUID(), {
    id: user.id,
    name: user.name,
    email,
    email_verified: true,
    updated_at: new Date().toISOString(),
    ...extra,
  });
const VERIFIED = { email_verified: true };

describe('collection: inviting workspace members by e-mail (outbox, RabbitMQ, SMTP sink)', () => {
  // alice owns the workspace, bob is its admin, carol a collector; erin and frank have accounts but
  // are no members; nina, laura, omar, peggy, quinn, rupert, sybil, ursula and victor are invited;
  // mallory is a stranger to it.
  const {
    alice,
    bob,
    carol,
    erin,
    frank,
    nina,
    laura,
    omar,
    peggy,
    quinn,
    rupert,
    sybil,
    ursula,
    victor,
    mallory,
  } = cast;
  const logger = testLogger('collection-invitations');
  let h: Harness;
  let sink: SmtpSink;
  let broker: Broker;
  let relay: OutboxRelay;
  let mailer: Mailer;
  let worker: { close: () => Promise<void> };
  let ws: number;

  before(async () => {
    h = await startHarness();
    sink = await startSmtpSink();
    broker = new Broker({
      url: await backingUrl('amqp'),
      logger,
      name: 'collection-invitations-test',
      prefix: randomPrefix('coll-inv'),
    });
    relay = new OutboxRelay({ knex: h.db, table: 'outbox', broker, logger, intervalMs: 50 });
    relay.start();
    mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Fieldhouse <no-reply@example.test>');
    worker = await startCollectionEmailWorker({ broker, db: h.db, mailer, logger, retryDelaysMs: [30] });
    await seen(h, alice, bob, carol);
    ws = (await h.as(alice).post('/api/v1/workspaces').send({ name: 'Field team' }).expect(201)).body.data
      .id as number;
    await h
      .as(alice)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: bob.id, role: 'admin' })
      .expect(201);
    await h
      .as(alice)
      .post(`/api/v1/workspaces/${ws}/members`)
      .send({ user_id: carol.id, role: 'collector' })
      .expect(201);
  });
  after(async () => {
    await worker?.close();
    mailer?.close();
    await relay?.stop();
    await broker?.close();
    await sink?.close();
    await h?.close();
  });

  describe('an address without an account', () => {
    // bob invites nina, who has no account yet, as a manager.
    let inv: Record<string, unknown> & { expires_at: string; sent_at: string };
    before(async () => {
      const res = await h
        .as(bob)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: '  Nina@Example.test ', role: 'manager' })
        .expect(201);
      inv = res.body.data;
    });

    it('invites it as pending for 14 days', async () => {
      expect(inv).to.include({ email: nina.email, role: 'manager', status: 'pending', invited_by: bob.id });
      expect(inv.invited_by_name).to.equal(bob.name);
      expect(inv).not.to.have.property('member');
      const days = (Date.parse(inv.expires_at) - Date.parse(inv.sent_at)) / 86_400_000;
      expect(days).to.be.closeTo(14, 0.01);
    });

    it('still refuses adding it as a member directly (422 unknown_user)', async () => {
      // the add-member contract is unchanged: an unknown e-mail is still 422 unknown_user there
      const unknown = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ email: nina.email, role: 'viewer' })
        .expect(422);
      expect(unknown.body.code).to.equal('unknown_user');
    });

    it('e-mails it the invitation with the console links', async () => {
      const mail = await sink.waitFor((m) => m.envelope.to.includes(nina.email), 10_000);
      expect(mail.subject).to.include('Field team');
      expect(mail.text).to.include(`${bob.name} invites you to the workspace "Field team"`);
      expect(mail.text).to.include('as manager');
      expect(mail.text).to.include(
        `http://127.0.0.1:8080/register?next=${encodeURIComponent(`/workspaces/${ws}`)}`,
      );
      expect(mail.text).to.include('/sign-in?next=');
      expect(mail.text).to.include('vous invite');
    });

    it('lists the pending invitation to the admins, not to collectors (403)', async () => {
      const list = await h.as(alice).get(`/api/v1/workspaces/${ws}/invitations`).expect(200);
      expect(list.body.data.map((i: { email: string }) => i.email)).to.deep.equal([nina.email]);
      expect(list.body.pagination.total).to.equal(1);
      // collectors may not see or manage invitations
      await h.as(carol).get(`/api/v1/workspaces/${ws}/invitations`).expect(403);
    });

    it('makes it a member with the invited role, once, when its registered address is verified', async () => {
      // Nina registers (the gateway's user.created, her address not verified yet): still pending
      expect(await registered(h, nina, 'NINA@example.test', { email_verified: false })).to.equal(true);
      expect(await h.db('workspace_members').where({ workspace_id: ws, user_id: nina.id })).to.have.length(0);
      expect(
        (await h.as(alice).get(`/api/v1/workspaces/${ws}/invitations`).expect(200)).body.data,
      ).to.have.length(1);
      // she opens the verification link (the gateway's user.updated): a member with the invited role, once
      expect(await registered(h, nina, 'NINA@example.test')).to.equal(true);
      const members = (await h.as(alice).get(`/api/v1/workspaces/${ws}/members`).expect(200)).body.data;
      const ninaMemberships = members.filter((m: { user_id: number }) => m.user_id === nina.id);
      expect(ninaMemberships.map((m: { role: string; email: string }) => [m.role, m.email])).to.deep.equal([
        ['manager', nina.email],
      ]);
      expect(
        (await h.as(alice).get(`/api/v1/workspaces/${ws}/invitations`).expect(200)).body.data,
      ).to.deep.equal([]);
      // a later event (profile change) and a replay change nothing
      await registered(h, nina, nina.email);
      const rows = await h.db('workspace_members').where({ workspace_id: ws, user_id: nina.id });
      expect(rows).to.have.length(1);
      expect(rows[0].role).to.equal('manager');
      const accepted = await h.db('workspace_invitations').where({ workspace_id: ws, email: nina.email });
      expect(accepted.map((r) => r.accepted_user_id)).to.deep.equal([nina.id]);
    });
  });

  // After the suite above (mocha runs a suite's own tests before its child suites): its listing
  // expects nina's invitation alone.
  describe('other invitations', () => {
    it('makes an address that has an account a member at once', async () => {
      await seen(h, erin);
      const res = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: erin.email.toUpperCase(), role: 'viewer' })
        .expect(201);
      expect(res.body.data).to.include({ status: 'accepted', role: 'viewer', expires_at: null });
      expect(res.body.data.member).to.include({ user_id: erin.id, role: 'viewer', email: erin.email });
    });

    it('refuses inviting a member (422 already_member), the membership unchanged', async () => {
      await seen(h, frank);
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: frank.email, role: 'viewer' })
        .expect(201);
      const again = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: frank.email, role: 'admin' })
        .expect(422);
      expect(again.body.code).to.equal('already_member');
      expect(again.body.errors).to.have.property('email');
      const rows = await h.db('workspace_members').where({ workspace_id: ws, user_id: frank.id });
      expect(rows.map((r) => r.role)).to.deep.equal(['viewer']);
    });

    it('does not duplicate the membership of an invited address that joined another way first', async () => {
      // an invitation of someone who joined meanwhile another way does not duplicate the membership
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: laura.email, role: 'collector' })
        .expect(201);
      await h
        .db('users')
        .insert({ id: laura.id, name: laura.name, email: laura.email, updated_at: new Date(0) });
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/members`)
        .send({ user_id: laura.id, role: 'admin' })
        .expect(201);
      await registered(h, laura, laura.email);
      const late = await h.db('workspace_members').where({ workspace_id: ws, user_id: laura.id });
      expect(late.map((r) => r.role)).to.deep.equal(['admin']);
    });

    it('re-invites a pending address with its new role (200), e-mailing it again', async () => {
      const first = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: omar.email, role: 'collector' })
        .expect(201);
      const id = first.body.data.id as number;
      const again = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: omar.email, role: 'viewer' })
        .expect(200);
      expect(again.body.data).to.include({ id, role: 'viewer', status: 'pending' });
      await sink.waitFor(
        () => sink.messages().filter((m) => m.envelope.to.includes(omar.email)).length >= 2,
        10_000,
      );
    });

    it('resends an invitation with a new expiry and one more e-mail', async () => {
      const id = (
        await h
          .as(alice)
          .post(`/api/v1/workspaces/${ws}/invitations`)
          .send({ email: peggy.email, role: 'collector' })
          .expect(201)
      ).body.data.id as number;
      await h
        .db('workspace_invitations')
        .where({ id })
        .update({
          sent_at: new Date(Date.now() - 86_400_000),
          expires_at: new Date(Date.now() + 86_400_000),
        });
      const resent = await h.as(bob).post(`/api/v1/workspaces/${ws}/invitations/${id}/resend`).expect(200);
      expect(Date.parse(resent.body.data.expires_at)).to.be.greaterThan(Date.now() + 13 * 86_400_000);
      await sink.waitFor(
        () => sink.messages().filter((m) => m.envelope.to.includes(peggy.email)).length >= 2,
        10_000,
      );
    });

    it("keeps owners' invitations to owners, and every invitation from collectors (403)", async () => {
      // an admin may not invite an owner, nor act on an owner's invitation; a collector nothing
      await h
        .as(bob)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: 'boss@example.test', role: 'owner' })
        .expect(403);
      const owner = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: 'boss@example.test', role: 'owner' })
        .expect(201);
      await h.as(bob).delete(`/api/v1/workspaces/${ws}/invitations/${owner.body.data.id}`).expect(403);
      await h
        .as(carol)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: 'x@example.test', role: 'viewer' })
        .expect(403);
    });

    it('refuses an invitation with a bad address or role (422 naming both)', async () => {
      const bad = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: 'not an address', role: 'chief' })
        .expect(422);
      expect(bad.body.errors).to.have.keys('email', 'role');
    });

    it('answers a stranger to the workspace 404 for its invitations', async () => {
      await h.as(mallory).get(`/api/v1/workspaces/${ws}/invitations`).expect(404);
    });

    it('revokes an invitation for good: 204, then 404, and no member when its address registers', async () => {
      const id = (
        await h
          .as(alice)
          .post(`/api/v1/workspaces/${ws}/invitations`)
          .send({ email: rupert.email, role: 'collector' })
          .expect(201)
      ).body.data.id as number;
      await h.as(alice).delete(`/api/v1/workspaces/${ws}/invitations/${id}`).expect(204);
      await h.as(alice).delete(`/api/v1/workspaces/${ws}/invitations/${id}`).expect(404);
      await h.as(alice).post(`/api/v1/workspaces/${ws}/invitations/${id}/resend`).expect(404);
      // a revoked invitation makes no member when its address registers
      await registered(h, rupert, rupert.email);
      expect(await h.db('workspace_members').where({ workspace_id: ws, user_id: rupert.id })).to.have.length(
        0,
      );
    });

    /** An invitation of `user`'s address as a collector, already past its expiry; resolves with its id. */
    const expiredInvitation = async (user: TestUser) => {
      const inv = await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: user.email, role: 'collector' })
        .expect(201);
      const id = inv.body.data.id as number;
      await h
        .db('workspace_invitations')
        .where({ id })
        .update({ expires_at: new Date(Date.now() - 1000) });
      return id;
    };

    it('lists an expired invitation as expired, and no sign-in takes it up', async () => {
      const id = await expiredInvitation(ursula);
      const list = await h.as(alice).get(`/api/v1/workspaces/${ws}/invitations`).expect(200);
      expect(list.body.data.find((i: { id: number }) => i.id === id).status).to.equal('expired');
      // ursula signs in (their first request, address verified): the expired invitation is not taken up
      const mine = await h.as(ursula, VERIFIED).get('/api/v1/workspaces').expect(200);
      expect(mine.body.data).to.deep.equal([]);
      expect(await h.db('workspace_members').where({ workspace_id: ws, user_id: ursula.id })).to.have.length(
        0,
      );
    });

    it('renews an expired invitation when resent, to be taken up as any pending one', async () => {
      const id = await expiredInvitation(sybil);
      const renewed = await h.as(alice).post(`/api/v1/workspaces/${ws}/invitations/${id}/resend`).expect(200);
      expect(renewed.body.data.status).to.equal('pending');
      await registered(h, sybil, sybil.email); // a user.updated
      const rows = await h.db('workspace_members').where({ workspace_id: ws, user_id: sybil.id });
      expect(rows.map((r) => r.role)).to.deep.equal(['collector']);
    });

    it('takes up an invitation at the first request whose JWT says the address is verified, not before', async () => {
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: victor.email, role: 'viewer' })
        .expect(201);
      // a JWT without the claim (minted before issue 32) or saying false: not a member
      expect((await h.as(victor).get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal([]);
      const unverified = { email_verified: false };
      expect((await h.as(victor, unverified).get('/api/v1/workspaces').expect(200)).body.data).to.deep.equal(
        [],
      );
      await h.as(victor, unverified).get(`/api/v1/workspaces/${ws}`).expect(404);
      // the address verified (the claims changed, before the user.updated arrives): a member
      const mine = await h.as(victor, VERIFIED).get('/api/v1/workspaces').expect(200);
      expect(mine.body.data.map((w: { id: number; role: string }) => [w.id, w.role])).to.deep.equal([
        [ws, 'viewer'],
      ]);
    });

    it('leaves an invitation pending until an event says the address is verified', async () => {
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${ws}/invitations`)
        .send({ email: quinn.email, role: 'viewer' })
        .expect(201);
      const quinnMemberships = () => h.db('workspace_members').where({ workspace_id: ws, user_id: quinn.id });
      // registered without proving the address; an event without the flag (before issue 32) neither
      await registered(h, quinn, quinn.email, { email_verified: false });
      await registered(h, quinn, quinn.email, { email_verified: undefined });
      expect(await quinnMemberships()).to.have.length(0);
      // an older event arriving late says another (verified) address: it takes up nothing
      await registered(h, quinn, 'earlier@example.test', { updated_at: new Date(0).toISOString() });
      expect(await quinnMemberships()).to.have.length(0);
      await registered(h, quinn, quinn.email, { email_verified: true });
      expect((await quinnMemberships()).map((r) => r.role)).to.deep.equal(['viewer']);
    });
  });
});
