import { expect } from 'chai';
import { disabledWebhookEmail, disabledWebhookEmails, type DisabledSubscription } from '@fieldhouse/webhooks';

describe('webhooks: the webhook-disabled notice (issue 32: language, local time, console link)', () => {
  const s: DisabledSubscription = {
    id: 'wh-1',
    url: 'https://hooks.example.test/in',
    reason: 'failing',
    scope: { event_id: 'e1' },
  };
  const at = new Date('2026-11-28T17:09:00Z');
  const where = { en: 'the event "Gala"', fr: 'l’événement « Gala »' };
  const link = 'https://fieldhouse.example.org/events/e1/webhooks';

  it('writes to a French owner in French, at their local time, with the link to the webhooks page', () => {
    const mail = disabledWebhookEmail(['owner@example.test'], s, where, {
      language: 'fr',
      timeZone: 'Europe/Paris',
      at,
      link,
    });
    expect(mail.subject).to.equal('Webhook désactivé : https://hooks.example.test/in');
    expect(mail.text).to.contain(
      'Le webhook https://hooks.example.test/in sur l’événement « Gala » a été désactivé le 28 novembre 2026 à 18:09 UTC+1',
    );
    expect(mail.text).to.contain('parce que ses livraisons échouaient');
    expect(mail.text).to.contain(`Ses webhooks dans la console Fieldhouse : ${link}`);
    expect(mail.html).to.contain(`<a href="${link}">Ses webhooks dans la console Fieldhouse</a>`);
    expect(mail.html).to.contain('l’événement « Gala »');
    expect(mail.reason).to.equal('webhook-disabled');
  });

  it('writes English and UTC when the owner is not known, and leaves the link out when there is none', () => {
    const mail = disabledWebhookEmail(['owner@example.test'], { ...s, reason: 'gone' }, 'the poll "Q"', {
      at,
    });
    expect(mail.subject).to.equal('Webhook disabled: https://hooks.example.test/in');
    expect(mail.text).to.contain(
      'The webhook https://hooks.example.test/in of the poll "Q" was disabled on 28 November 2026 at 17:09 UTC because the receiver answered 410 Gone',
    );
    expect(mail.text).not.to.contain('console Fieldhouse');
    expect(mail.text).not.to.contain('http://');
    // An unknown stored zone falls back to UTC rather than failing the notice.
    const odd = disabledWebhookEmail(['o@example.test'], s, where, { timeZone: 'Mars/Olympus', at, link });
    expect(odd.text).to.contain('28 November 2026 at 17:09 UTC');
    expect(odd.text).to.contain(`Its webhooks in the Fieldhouse console: ${link}`);
  });

  it('sends one notice per language and time zone among several owners', () => {
    const mails = disabledWebhookEmails(
      [
        { email: 'a@example.test', language: 'fr', time_zone: 'Europe/Paris' },
        { email: 'b@example.test' },
        { email: 'c@example.test', language: 'fr', time_zone: 'Europe/Paris' },
        { email: 'd@example.test', language: 'en', time_zone: null },
      ],
      s,
      where,
      { at, link },
    );
    expect(mails.map((m) => m.to)).to.deep.equal([
      ['a@example.test', 'c@example.test'],
      ['b@example.test', 'd@example.test'],
    ]);
    expect(mails[0]!.subject).to.match(/^Webhook désactivé/);
    expect(mails[1]!.text).to.contain('17:09 UTC');
    for (const m of mails) expect(m.text).to.contain(link);
  });
});
