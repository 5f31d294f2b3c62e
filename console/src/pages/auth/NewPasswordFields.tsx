import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from './rules.ts';

/** The part of a form's values these fields fill (the gateway's field names). */
export interface NewPasswordValues {
  password: string;
  password_confirmation: string;
}

/**
 * A new password, with the gateway's minimum length as its hint, and its confirmation, both
 * `autocomplete="new-password"` so password managers offer to generate and save one. Used by
 * registration, the password page and the reset link's page; their rules are
 * `passwordRule(t, MIN_PASSWORD_LENGTH)` and `confirmationRule(t)` in rules.ts.
 *
 * @param form - the page's form (its values include `password` and `password_confirmation`).
 * @param label - the first field's label ("Password" on registration, "New password" elsewhere).
 * @param autoFocus - focus the first field when the page opens (it is the page's first field).
 */
export function NewPasswordFields({
  form,
  label,
  autoFocus = false,
}: {
  form: Pick<UseFormReturnType<NewPasswordValues>, 'key' | 'getInputProps'>;
  label: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('auth');
  return (
    <>
      <PasswordInput
        label={label}
        description={t('register.passwordHint', { min: MIN_PASSWORD_LENGTH })}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        key={form.key('password')}
        {...form.getInputProps('password')}
      />
      <PasswordInput
        label={t('fields.confirmation')}
        autoComplete="new-password"
        required
        key={form.key('password_confirmation')}
        {...form.getInputProps('password_confirmation')}
      />
    </>
  );
}
