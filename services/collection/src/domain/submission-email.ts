import type { EmailRequested } from '@fieldhouse/contracts';
import type { RecipientPreferences } from '../data/users.ts';

/** The languages of e-mails (the console's); anything else is sent in English. */
export type EmailLanguage = 'en' | 'fr';

/** What a new-submission e-mail says. */
export interface NewSubmission {
  projectId: number;
  projectName: string;
  submissionId: number;
  status: string;
  createdAt: Date;
}

const TEXTS = {
  en: {
    locale: 'en-GB',
    subject: (project: string) => `New submission to ${project}`,
    body: (s: NewSubmission, when: string, status: string) =>
      `A new submission (#${s.submissionId}, ${status}) was received for project "${s.projectName}" on ${when}.`,
    open: 'Open it in Fieldhouse',
    colon: ':',
    why: "You receive this e-mail because this address is in the project's notification e-mails.",
    status: { submitted: 'submitted', draft: 'draft' } as Record<string, string>,
  },
  fr: {
    locale: 'fr-FR',
    subject: (project: string) => `Nouvel envoi pour ${project}`,
    body: (s: NewSubmission, when: string, status: string) =>
      `Un nouvel envoi (n° ${s.submissionId}, ${status}) a été reçu pour le projet « ${s.projectName} » le ${when}.`,
    open: 'L’ouvrir dans Fieldhouse',
    colon: ' :',
    why: 'Vous recevez cet e-mail parce que cette adresse figure parmi les adresses de notification du projet.',
    status: { submitted: 'envoyé', draft: 'brouillon' } as Record<string, string>,
  },
};

/** `s` with HTML's special characters as entities. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A zone Intl knows, else UTC (a stored zone the runtime does not know must not fail the e-mail). */
export function zoneOrUtc(zone: string | null): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/**
 * `at` as the recipient reads it: day, month in words, year and time in `zone`, with the zone's
 * name (`28 November 2026 at 18:09 CET`, `28 novembre 2026 à 18:09 UTC+1`).
 */
export function localTime(at: Date, language: EmailLanguage, zone: string): string {
  return new Intl.DateTimeFormat(TEXTS[language].locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  }).format(at);
}

/** The console's page of the submission: the project's submissions with its drawer open. */
const submissionLink = (publicUrl: string, s: Pick<NewSubmission, 'projectId' | 'submissionId'>) =>
  `${publicUrl}/projects/${s.projectId}/submissions?submission=${s.submissionId}`;

/**
 * The `notify_on_submission` e-mails of one submission (spec 6; docs/collection.md, "E-mails"):
 * one per language and time zone among the recipients. A recipient who is a user of Fieldhouse
 * (the users projection knows the address) reads it in their language and time zone; any other
 * address in English and UTC. Each carries the time in words and a link to the submission in
 * the console (`publicUrl`, the console's public address).
 */
export function submissionEmails(
  recipients: readonly string[],
  known: readonly RecipientPreferences[],
  s: NewSubmission,
  publicUrl: string,
): EmailRequested[] {
  const prefs = new Map(known.map((k) => [k.email.toLowerCase(), k]));
  const groups = new Map<string, { language: EmailLanguage; zone: string; to: string[] }>();
  for (const to of recipients) {
    const p = prefs.get(to.toLowerCase());
    const language: EmailLanguage = p?.language === 'fr' ? 'fr' : 'en';
    const zone = zoneOrUtc(p?.time_zone ?? null);
    const key = `${language} ${zone}`;
    const group = groups.get(key) ?? { language, zone, to: [] };
    group.to.push(to);
    groups.set(key, group);
  }
  const link = submissionLink(publicUrl, s);
  return [...groups.values()].map(({ language, zone, to }) => {
    const t = TEXTS[language];
    const body = t.body(s, localTime(s.createdAt, language, zone), t.status[s.status] ?? s.status);
    return {
      to,
      subject: t.subject(s.projectName),
      text: `${body}\n\n${t.open}${t.colon} ${link}\n\n${t.why}\n\nFieldhouse`,
      html:
        `<p>${escapeHtml(body)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.open)}</a></p>` +
        `<p>${escapeHtml(link)}</p><p>${escapeHtml(t.why)}</p><p>Fieldhouse</p>`,
      reason: 'submission-created',
    };
  });
}
