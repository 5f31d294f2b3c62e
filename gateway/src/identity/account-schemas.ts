import Joi from 'joi';

/** The console's languages: e-mails and pages in English or French. */
const ACCOUNT_LANGUAGES = ['en', 'fr'] as const;

/** Whether `zone` is a time zone name the runtime's IANA database knows (`Europe/Paris`, `UTC`). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const timeZone = Joi.string()
  .max(64)
  .custom((v: string, helpers) => (isTimeZone(v) ? v : helpers.error('any.invalid')))
  .messages({ 'any.invalid': 'The time zone must be an IANA time zone name, such as Europe/Paris.' });

/** `PATCH /api/v1/me`: any of `{name, email, language, time_zone}`; at least one. */
export interface ProfileCommand {
  name?: string;
  email?: string;
  language?: 'en' | 'fr' | null;
  time_zone?: string | null;
}
export const profileBody = Joi.object<ProfileCommand>({
  name: Joi.string().trim().min(1).max(255),
  email: Joi.string()
    .trim()
    .email({ tlds: false })
    .max(255)
    .description('A new address is unverified until its link is opened'),
  language: Joi.string()
    .valid(...ACCOUNT_LANGUAGES)
    .allow(null),
  time_zone: timeZone.allow(null).description('An IANA time zone name'),
}).min(1);

/** `PUT /api/v1/me/password`: `{current_password, password, password_confirmation?}`. */
export interface PasswordChangeCommand {
  current_password: string;
  password: string;
  password_confirmation?: string;
}
export const passwordChangeBody = Joi.object<PasswordChangeCommand>({
  current_password: Joi.string().required(),
  password: Joi.string().min(8).required().description('8 characters to 72 bytes'),
  password_confirmation: Joi.string().description('When given, must equal `password`'),
});

/** `POST /api/v1/password/forgot`: `{email}`. */
export const passwordForgotBody = Joi.object<{ email: string }>({
  email: Joi.string().trim().email({ tlds: false }).max(255).required(),
});

/** `POST /api/v1/password/reset`: `{token, password, password_confirmation?}`. */
export interface PasswordResetCommand {
  token: string;
  password: string;
  password_confirmation?: string;
}
export const passwordResetBody = Joi.object<PasswordResetCommand>({
  token: Joi.string().max(200).required().description('The secret of the e-mailed link (after `#token=`)'),
  password: Joi.string().min(8).required().description('8 characters to 72 bytes'),
  password_confirmation: Joi.string().description('When given, must equal `password`'),
});

/** `POST /api/v1/email/verify`: `{token}`. */
export const emailVerifyBody = Joi.object<{ token: string }>({
  token: Joi.string().max(200).required().description('The secret of the e-mailed link (after `#token=`)'),
});

/** The answer of requests that send an e-mail, whatever happened (no account enumeration). */
export const acceptedAnswer = Joi.object({
  message: Joi.string().required(),
}).id('Accepted');
