import { expect } from 'chai';
import { ProblemError, validationFailed } from '@fieldhouse/problem';
import { testLogger } from '@fieldhouse/testkit';
import { createEventsContext } from '../src/app.ts';
import type { Actor, EventsContext } from '../src/domain/context.ts';
import { deleteEvent, getEvent } from '../src/domain/events.ts';
import { createInvite } from '../src/domain/invites.ts';
import { alice, bob, carol, startHarness, type Harness, type TestUser } from './harness.ts';

/** The actor a use case sees for a test user (no User-Agent: not an HTTP request). */
const actor = (u: TestUser): Actor => ({ userId: u.id, name: u.name, email: u.email, userAgent: null });

/** The status of the problem `work` fails with. */
async function problemStatus(work: Promise<unknown>): Promise<number> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(ProblemError);
  return (err as ProblemError).status;
}

describe('events service: use cases called without HTTP (typed commands, domain errors)', () => {
  let h: Harness;
  let ctx: EventsContext;
  let eventId: string;
  let kicks = 0;
  before(async () => {
    h = await startHarness('events_use_cases');
    ctx = createEventsContext({ db: h.db, logger: testLogger('events'), outboxWritten: () => kicks++ });
    eventId = await h.event(alice);
    await h.addStaff(alice, eventId, bob);
  });
  after(async () => h?.close());

  it('shows the event to its owner and staff, and answers 404 to anyone else', async () => {
    expect((await getEvent(ctx, { actor: actor(alice), eventId })).id).to.equal(eventId);
    expect((await getEvent(ctx, { actor: actor(bob), eventId })).id).to.equal(eventId);
    expect(await problemStatus(getEvent(ctx, { actor: actor(carol), eventId }))).to.equal(404);
  });

  it('refuses an owner-only action to staff with 403 and to an outsider with 404', async () => {
    expect(await problemStatus(deleteEvent(ctx, { actor: actor(bob), eventId }))).to.equal(403);
    expect(await problemStatus(deleteEvent(ctx, { actor: actor(carol), eventId }))).to.equal(404);
  });

  it('checks access before reading the body: a stranger gets 404 and staff 403, never the 422 of a bad body', async () => {
    const badBody = () => {
      throw validationFailed({ email: ['The email must be a valid email.'] });
    };
    expect(
      await problemStatus(createInvite(ctx, { actor: actor(carol), eventId, invite: badBody })),
    ).to.equal(404);
    expect(await problemStatus(createInvite(ctx, { actor: actor(bob), eventId, invite: badBody }))).to.equal(
      403,
    );
    expect(
      await problemStatus(createInvite(ctx, { actor: actor(alice), eventId, invite: badBody })),
    ).to.equal(422);
  });

  it('writes the invite and its invitation e-mail in one transaction, then kicks the relay once', async () => {
    const before = kicks;
    const invite = await createInvite(ctx, {
      actor: actor(alice),
      eventId,
      invite: () => ({ nom: 'Ada', email: 'ada@example.test' }),
    });
    expect(invite.type_invite).to.equal('standard');
    const queued = await h.db('outbox').select('message');
    expect(queued.map((r) => r.message.data.to[0])).to.include('ada@example.test');
    expect(kicks).to.equal(before + 1);
  });

  it('queues no e-mail and kicks nothing when the invite is refused (email_taken)', async () => {
    const outboxSize = async () => Number((await h.db('outbox').count({ n: '*' }))[0]!.n);
    const queued = await outboxSize();
    const before = kicks;
    const refused = createInvite(ctx, {
      actor: actor(alice),
      eventId,
      invite: () => ({ nom: 'Ada', email: 'ADA@example.test' }),
    });
    expect(await problemStatus(refused)).to.equal(422);
    expect(await outboxSize()).to.equal(queued);
    expect(kicks).to.equal(before);
  });
});
