import type { EmailRequested } from '@fieldhouse/contracts';

/** The languages of e-mails (the console's); anything else is English. */
export type EmailLanguage = 'en' | 'fr';

const TEXTS = {
  en: {
    subject: (title: string) => `Your one-time password for "${title}"`,
    text: (password: string, title: string, minutes: number, code: string) =>
      `Your one-time password is ${password}\n\n` +
      `Enter it to confirm your vote on "${title}". It expires in ${minutes} minutes.\n` +
      `Verification code: ${code}\n`,
  },
  fr: {
    subject: (title: string) => `Votre mot de passe à usage unique pour « ${title} »`,
    text: (password: string, title: string, minutes: number, code: string) =>
      `Votre mot de passe à usage unique est ${password}\n\n` +
      `Saisissez-le pour confirmer votre vote sur « ${title} ». Il expire dans ${minutes} minutes.\n` +
      `Code de vérification : ${code}\n`,
  },
};

/**
 * The e-mail of a vote's one-time password (docs/polls.md, "E-mails"), in the voter's language:
 * the vote request's `Accept-Language` (the console sends its own), else English.
 */
export function otpEmail(
  to: string,
  f: { password: string; title: string; minutes: number; code: string },
  language: EmailLanguage,
): EmailRequested {
  const t = TEXTS[language];
  return {
    to: [to],
    subject: t.subject(f.title),
    text: t.text(f.password, f.title, f.minutes, f.code),
    reason: 'vote-verification',
  };
}
