import type { EmailRequested } from '@fieldhouse/contracts';
import type { DisabledSubscription } from './types.ts';

/**
 * The scope of a webhook as the notice names it, in each language: `en` after "of"
 * (`the event "Gala"`), `fr` after "sur" (`l’événement « Gala »`). A plain string is English
 * and used for both.
 */
export type ScopeName = string | { en: string; fr: string };

/** Who reads a notice: language `en`/`fr` and IANA time zone when known (else English, UTC). */
export interface NoticeRecipient {
  email: string;
  language?: string | null;
  time_zone?: string | null;
}

/** What a notice may add: when the webhook was disabled (default: now) and the console page. */
export interface NoticeOptions {
  at?: Date;
  /** Absolute address of the console's webhooks page of the scope (`<PUBLIC_URL>/events/<id>/webhooks`). */
  link?: string;
}

const TEXTS = {
  en: {
    locale: 'en-GB',
    subject: (url: string) => `Webhook disabled: ${url}`,
    first: (url: string, where: string, when: string, why: string) =>
      `The webhook ${url} of ${where} was disabled on ${when} because ${why}.`,
    reasons: {
      gone: 'the receiver answered 410 Gone, which asks us to stop',
      failing: 'its deliveries kept failing after every retry',
    },
    then:
      'No more deliveries are attempted until it is turned back on (set "active" to true on the webhook, ' +
      'or in the console). Deliveries that failed meanwhile stay in its delivery log and can be sent again ' +
      '("redeliver-failed").',
    open: 'Its webhooks in the Fieldhouse console',
    colon: ':',
    id: 'Webhook id',
  },
  fr: {
    locale: 'fr-FR',
    subject: (url: string) => `Webhook désactivé : ${url}`,
    first: (url: string, where: string, when: string, why: string) =>
      `Le webhook ${url} sur ${where} a été désactivé le ${when} parce que ${why}.`,
    reasons: {
      gone: 'le destinataire a répondu 410 Gone, ce qui nous demande d’arrêter',
      failing: 'ses livraisons échouaient encore après chaque nouvelle tentative',
    },
    then:
      'Plus aucune livraison n’est tentée tant qu’il n’est pas réactivé (« active » à true sur le webhook, ' +
      'ou dans la console). Les livraisons échouées entre-temps restent dans son journal de livraisons et ' +
      'peuvent être renvoyées (« redeliver-failed »).',
    open: 'Ses webhooks dans la console Fieldhouse',
    colon: ' :',
    id: 'Identifiant du webhook',
  },
} as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A zone Intl knows, else UTC (an unknown stored zone must not fail the notice). */
function zoneOrUtc(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/**
 * The e-mail telling the owners of a scope that one of its webhooks was disabled by its
 * deliveries (410, or failing in a row): what, when (in words, in `timeZone`, with the zone's
 * name), why, and how to turn it back on (PATCH `active`), then to redeliver what failed
 * meanwhile; with a link to the console's webhooks page of the scope when `options.link` is
 * given. In French when `language` is `fr`, else English; in UTC unless `timeZone` names a zone.
 */
export function disabledWebhookEmail(
  to: string[],
  s: DisabledSubscription,
  where: ScopeName,
  options: NoticeOptions & { language?: string | null; timeZone?: string | null } = {},
): EmailRequested {
  const lang = options.language === 'fr' ? 'fr' : 'en';
  const t = TEXTS[lang];
  const scope = typeof where === 'string' ? where : where[lang];
  const when = new Intl.DateTimeFormat(t.locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zoneOrUtc(options.timeZone),
    timeZoneName: 'short',
  }).format(options.at ?? new Date());
  const first = t.first(s.url, scope, when, t.reasons[s.reason]);
  const link = options.link;
  return {
    to,
    subject: t.subject(s.url),
    text:
      `${first}\n\n${t.then}\n\n` +
      (link ? `${t.open}${t.colon} ${link}\n\n` : '') +
      `${t.id}${t.colon} ${s.id}\n`,
    html:
      `<p>${escapeHtml(first)}</p><p>${escapeHtml(t.then)}</p>` +
      (link
        ? `<p><a href="${escapeHtml(link)}">${escapeHtml(t.open)}</a></p><p>${escapeHtml(link)}</p>`
        : '') +
      `<p>${escapeHtml(t.id)}${t.colon} ${escapeHtml(s.id)}</p>`,
    reason: 'webhook-disabled',
  };
}

/**
 * The notices of one disabled webhook to several recipients: one e-mail per language and time
 * zone among them (each as `disabledWebhookEmail` writes it).
 */
export function disabledWebhookEmails(
  recipients: readonly NoticeRecipient[],
  s: DisabledSubscription,
  where: ScopeName,
  options: NoticeOptions = {},
): EmailRequested[] {
  const at = options.at ?? new Date();
  const groups = new Map<string, { language: 'en' | 'fr'; timeZone: string; to: string[] }>();
  for (const r of recipients) {
    const language = r.language === 'fr' ? 'fr' : 'en';
    const timeZone = zoneOrUtc(r.time_zone);
    const key = `${language} ${timeZone}`;
    const group = groups.get(key) ?? { language, timeZone, to: [] };
    group.to.push(r.email);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ to, ...g }) =>
    disabledWebhookEmail(to, s, where, { ...options, ...g, at }),
  );
}
