import type { EmailRequested } from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import type { Mailer } from '@fieldhouse/mail';

/** The e-mails the gateway sends about an account. */
export type AccountEmailKind = 'password_reset' | 'email_verification';

type Texts = { subject: string; intro: (name: string) => string; action: string; note: string };

const TEXTS: Record<'en' | 'fr', Record<AccountEmailKind, Texts>> = {
  en: {
    password_reset: {
      subject: 'Reset your Fieldhouse password',
      intro: (name) =>
        `Hello ${name},\n\nSomeone (we hope you) asked to reset the password of your Fieldhouse account.`,
      action: 'Choose a new password',
      note: 'This link works once, for 30 minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.',
    },
    email_verification: {
      subject: 'Confirm your e-mail address for Fieldhouse',
      intro: (name) =>
        `Hello ${name},\n\nPlease confirm that this address belongs to your Fieldhouse account.`,
      action: 'Confirm my address',
      note: 'This link works once, for 48 hours. If you did not create a Fieldhouse account, ignore this e-mail.',
    },
  },
  fr: {
    password_reset: {
      subject: 'Réinitialiser votre mot de passe Fieldhouse',
      intro: (name) =>
        `Bonjour ${name},\n\nQuelqu’un (vous, nous l’espérons) a demandé à réinitialiser le mot de passe de votre compte Fieldhouse.`,
      action: 'Choisir un nouveau mot de passe',
      note: 'Ce lien ne sert qu’une fois, pendant 30 minutes. Si vous n’avez rien demandé, ignorez ce message : votre mot de passe ne change pas.',
    },
    email_verification: {
      subject: 'Confirmez votre adresse e-mail pour Fieldhouse',
      intro: (name) =>
        `Bonjour ${name},\n\nMerci de confirmer que cette adresse est bien celle de votre compte Fieldhouse.`,
      action: 'Confirmer mon adresse',
      note: 'Ce lien ne sert qu’une fois, pendant 48 heures. Si vous n’avez pas créé de compte Fieldhouse, ignorez ce message.',
    },
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The e-mail of one account link, in the recipient's language (`fr`, else English), as plain
 * text and HTML, its link `url` written out in both.
 */
export function accountEmail(
  kind: AccountEmailKind,
  to: { email: string; name: string; language: string | null },
  url: string,
): EmailRequested {
  const t = TEXTS[to.language === 'fr' ? 'fr' : 'en'][kind];
  const intro = t.intro(to.name);
  const text = `${intro}\n\n${t.action}: ${url}\n\n${t.note}\n\nFieldhouse`;
  const html =
    `<p>${escapeHtml(intro).replace(/\n\n/g, '</p><p>')}</p>` +
    `<p><a href="${escapeHtml(url)}">${escapeHtml(t.action)}</a></p>` +
    `<p>${escapeHtml(url)}</p><p>${escapeHtml(t.note)}</p><p>Fieldhouse</p>`;
  return { to: [to.email], subject: t.subject, text, html, reason: kind.replace('_', '-') };
}

/** Sends account e-mails without making the caller wait (and so without telling anything by timing). */
export interface AccountMailer {
  /** Queues `email` for sending now; a failure is logged (the user can ask again), never thrown. */
  send: (email: EmailRequested) => void;
  /** Resolves once every e-mail queued so far was handed to SMTP or failed. */
  idle: () => Promise<void>;
}

/**
 * An {@link AccountMailer} over an SMTP {@link Mailer}. Each e-mail is attempted twice (1 s
 * apart); after that it is logged as lost: the user asks again ("send again", "forgot password").
 */
export function accountMailer(mailer: Mailer, logger: Logger): AccountMailer {
  const pending = new Set<Promise<void>>();
  const attempt = async (email: EmailRequested) => {
    const id = `account-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    try {
      await mailer.send(email, id);
    } catch {
      await new Promise((r) => setTimeout(r, 1_000));
      await mailer.send(email, id);
    }
  };
  return {
    send: (email) => {
      const p = attempt(email)
        .catch((err: unknown) => {
          logger.warn('an account e-mail could not be sent', { reason: email.reason, err });
        })
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    idle: async () => {
      await Promise.all([...pending]);
    },
  };
}
