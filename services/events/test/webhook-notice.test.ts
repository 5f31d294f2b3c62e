import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { inTransactionWith } from '@fieldhouse/messaging';
import type { DisabledSubscription } from '@fieldhouse/webhooks';
import { noticeDisabledWebhook } from '../src/domain/webhooks.ts';
import { applyUserEvent } from '../src/domain/users.ts';
import { alice, startHarness, type Harness, type TestUser } from './harness.ts';

/** Issue 32: the webhook-disabled notice in the event owner's language and time zone, with the console's page. */
describe('events service: the webhook-disabled notice to the event owner (real PostgreSQL)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness('events_webhook_notice');
  });
  after(async () => h?.close());

  const notice = async (eventId: string, publicUrl?: string) => {
    const s: DisabledSubscription = {
      id: randomUUID(),
      url: 'https://hooks.example.test/in',
      reason: 'failing',
      scope: { event_id: eventId },
    };
    await noticeDisabledWebhook(
      { db: h.db, inTransaction: inTransactionWith(h.db, 'outbox'), ...(publicUrl ? { publicUrl } : {}) },
      s,
    );
    const mails = (await h.db('outbox').select('message'))
      .map((r: { message: { data: { reason: string; text: string } } }) => r.message.data)
      .filter((m) => m.reason === 'webhook-disabled' && m.text.includes(s.id));
    expect(mails).to.have.length(1);
    return mails[0] as unknown as { to: string[]; subject: string; text: string; html: string };
  };

  it('writes to a French owner in French, at their local time, with a link to the event’s webhooks page', async () => {
    const owner: TestUser = { id: 41, name: 'Odile', email: 'odile@example.test' };
    const eventId = await h.event(owner, { name: 'Gala' });
    await applyUserEvent({ inTransaction: inTransactionWith(h.db, 'outbox') }, randomUUID(), {
      ...owner,
      language: 'fr',
      time_zone: 'Europe/Paris',
      updated_at: new Date(Date.now() + 60_000).toISOString(),
    });
    const mail = await notice(eventId, 'https://fh.example.test');
    expect(mail.to).to.deep.equal(['odile@example.test']);
    expect(mail.subject).to.equal('Webhook désactivé : https://hooks.example.test/in');
    expect(mail.text)
      .to.contain('sur l’événement « Gala » a été désactivé le')
      .and.match(/ UTC\+[12] parce que/);
    const link = `https://fh.example.test/events/${eventId}/webhooks`;
    expect(mail.text).to.contain(`Ses webhooks dans la console Fieldhouse : ${link}`);
    expect(mail.html).to.contain(`href="${link}"`);
  });

  it('writes English and UTC to an owner whose language is unknown, without a link when no address is set', async () => {
    const eventId = await h.event(alice, { name: 'Fair' });
    const mail = await notice(eventId);
    expect(mail.to).to.deep.equal(['alice@example.test']);
    expect(mail.subject).to.equal('Webhook disabled: https://hooks.example.test/in');
    expect(mail.text)
      .to.contain('of the event "Fair" was disabled on')
      .and.match(/ UTC because /);
    expect(mail.text).not.to.contain('/webhooks');
  });
});
