/**
 * The gateway's rules for credentials, checked in the browser before sending (the gateway stays
 * the authority): gateway/src/identity/identity-schemas.ts and passwords.ts.
 */
import type { TFunction } from 'i18next';

/** bcrypt reads at most 72 bytes: the gateway refuses longer passwords (422). */
const MAX_PASSWORD_BYTES = 72;
/** Registration: at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8;
/** Names and e-mails: at most 255 characters. */
const MAX_TEXT = 255;

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;
/** Close to joi's `email({tlds: false})`: one @, no spaces, a dot-free-or-not domain part. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export const emailRule = (t: TFunction) => (value: string) =>
  !value.trim()
    ? t('errors.required')
    : value.trim().length > MAX_TEXT
      ? t('errors.tooLong', { max: MAX_TEXT })
      : EMAIL.test(value.trim())
        ? null
        : t('errors.email');

export const passwordRule =
  (t: TFunction, min = 1) =>
  (value: string) =>
    !value
      ? t('errors.required')
      : value.length < min
        ? t('errors.passwordShort', { min })
        : utf8Bytes(value) > MAX_PASSWORD_BYTES
          ? t('errors.passwordLong', { max: MAX_PASSWORD_BYTES })
          : null;

/** A confirmation field: the same as the form's `password` (the gateway's `password_confirmation`). */
export const confirmationRule = (t: TFunction) => (value: string, values: { password: string }) =>
  value === values.password ? null : t('errors.confirmation');

export const nameRule = (t: TFunction) => (value: string) =>
  !value.trim()
    ? t('errors.required')
    : value.trim().length > MAX_TEXT
      ? t('errors.tooLong', { max: MAX_TEXT })
      : null;
