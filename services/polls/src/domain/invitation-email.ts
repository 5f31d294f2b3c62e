import type { EmailRequested } from '@fieldhouse/contracts';
import type { EmailLanguage } from './otp-email.ts';

const TEXTS = {
  en: {
    subject: (title: string, reminder: boolean) =>
      reminder ? `Reminder: your vote on "${title}"` : `You are invited to vote: "${title}"`,
    text: (title: string, link: string, reminder: boolean) =>
      (reminder
        ? `You have not voted on "${title}" yet.\n\n`
        : `You are invited to vote on "${title}".\n\n`) +
      `Your personal link (one ballot; do not share it):\n${link}\n`,
  },
  fr: {
    subject: (title: string, reminder: boolean) =>
      reminder ? `Rappel : votre vote sur « ${title} »` : `Vous êtes invité(e) à voter : « ${title} »`,
    text: (title: string, link: string, reminder: boolean) =>
      (reminder
        ? `Vous n’avez pas encore voté sur « ${title} ».\n\n`
        : `Vous êtes invité(e) à voter sur « ${title} ».\n\n`) +
      `Votre lien personnel (un seul bulletin ; ne le partagez pas) :\n${link}\n`,
  },
};

/**
 * The e-mail of an invitation or a reminder (docs/polls.md, "Invited voters"): the personal
 * link `<PUBLIC_URL>/p/<poll id>#invite=<token>` (the token in the fragment: a browser never
 * sends it to a server, so no access log holds it), in the owner's language (the request's
 * `Accept-Language`), else English. It names no ballot.
 */
export function invitationEmail(
  to: string,
  f: { title: string; link: string; reminder: boolean },
  language: EmailLanguage,
): EmailRequested {
  const t = TEXTS[language];
  return {
    to: [to],
    subject: t.subject(f.title, f.reminder),
    text: t.text(f.title, f.link, f.reminder),
    reason: f.reminder ? 'poll-invitation-reminder' : 'poll-invitation',
  };
}
