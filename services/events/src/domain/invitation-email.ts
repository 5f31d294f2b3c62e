import type { EmailRequested } from '@fieldhouse/contracts';
import { qrPng } from './qr.ts';

export interface InvitationFacts {
  nom: string;
  email: string;
  code_unique: string;
  event: { name: string; start_date: string; location: string };
  /** The invitee's language when the address is a user's who chose one (`en`, `fr`), else null. */
  language?: string | null;
  /** How many people the code admits (a party; docs/events.md, "Parties"); 1 when absent. */
  seats?: number;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The invitation's words in each language the console speaks (anything else: English). */
const TEXTS = {
  en: {
    locale: 'en-GB',
    subject: (event: string) => `Your invitation: ${event}`,
    hello: (nom: string) => `Hello ${nom},`,
    invited: 'You are invited to',
    showAttached: 'Show the attached QR code at the entrance, or give this code:',
    showThis: 'Show this QR code at the entrance:',
    orCode: 'Or give this code:',
    qrAlt: 'QR code',
    admits: (n: number) =>
      `This code admits ${n} people: show it once for the whole party, or again as they arrive.`,
  },
  fr: {
    locale: 'fr-FR',
    subject: (event: string) => `Votre invitation : ${event}`,
    hello: (nom: string) => `Bonjour ${nom},`,
    invited: 'Vous êtes invité(e) à',
    showAttached: 'Présentez le QR code joint à l’entrée, ou donnez ce code :',
    showThis: 'Présentez ce QR code à l’entrée :',
    orCode: 'Ou donnez ce code :',
    qrAlt: 'QR code',
    admits: (n: number) =>
      `Ce code est valable pour ${n} personnes : présentez-le une fois pour tout le groupe, ou à chaque arrivée.`,
  },
};

/**
 * The event's start, a wall-clock time of the venue (`2026-06-01T18:30:00`, no zone: events are
 * where they are), in words in `language` (`1 June 2026 at 18:30`, `1 juin 2026 à 18:30`); the
 * text as it came when it is not such a date.
 */
function startInWords(start: string, language: 'en' | 'fr'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(start);
  if (!m) return start.replace('T', ' ');
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  return new Intl.DateTimeFormat(TEXTS[language].locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, mo - 1, d, h, mi)));
}

/**
 * The invitation e-mail job (`email.requested`, reason `invitation`): a text and an HTML part
 * with the event, the code, and the QR code as a PNG attachment (`qr-<code>.png`) shown inline
 * in the HTML through `cid:qr`. In the invitee's language when the address is a user's who chose
 * one (`language`: the users projection's), else English (docs/events.md, "E-mails").
 */
export async function invitationEmail(f: InvitationFacts): Promise<EmailRequested> {
  const png = await qrPng(f.code_unique);
  const t = TEXTS[f.language === 'fr' ? 'fr' : 'en'];
  const when = startInWords(f.event.start_date, f.language === 'fr' ? 'fr' : 'en');
  const party = (f.seats ?? 1) > 1 ? t.admits(f.seats!) : null;
  const text =
    `${t.hello(f.nom)}\n\n${t.invited} ${f.event.name}, ${when}, ${f.event.location}.\n` +
    (party ? `${party}\n` : '') +
    `${t.showAttached} ${f.code_unique}\n`;
  const html =
    `<p>${escapeHtml(t.hello(f.nom))}</p>` +
    `<p>${escapeHtml(t.invited)} <strong>${escapeHtml(f.event.name)}</strong>, ${escapeHtml(when)}, ` +
    `${escapeHtml(f.event.location)}.</p>` +
    (party ? `<p><strong>${escapeHtml(party)}</strong></p>` : '') +
    `<p>${escapeHtml(t.showThis)}</p><p><img src="cid:qr" alt="${t.qrAlt}" width="300" height="300"></p>` +
    `<p>${escapeHtml(t.orCode)} <code>${f.code_unique}</code></p>`;
  return {
    to: [f.email],
    subject: t.subject(f.event.name),
    text,
    html,
    reason: 'invitation',
    attachments: [
      {
        filename: `qr-${f.code_unique}.png`,
        contentType: 'image/png',
        contentBase64: png.toString('base64'),
        cid: 'qr',
      },
    ],
  };
}
