import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, gatewayApi } from '../../api/client.ts';
import { ME_KEY, type Account } from '../../auth/session.ts';

/** What the profile form sends (`PATCH /api/v1/me`): only the fields that changed. */
export type ProfileChanges = {
  name?: string;
  email?: string;
  language?: 'en' | 'fr' | null;
  time_zone?: string | null;
};

/**
 * `PATCH /api/v1/me`: changes name, e-mail, language or time zone; the answer replaces the
 * cached "me". 422 `email_in_use` (another account's address) or `validation_failed`.
 */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ProfileChanges) =>
      (await call(gatewayApi.PATCH('/api/v1/me', { body: changes }))).data,
    onSuccess: (account: Account) => client.setQueryData(ME_KEY, account),
  });
}

/**
 * `PUT /api/v1/me/password`: 204; every other browser session is signed out. 422
 * `current_password_incorrect`, or a new password the gateway refuses.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { current_password: string; password: string; password_confirmation: string }) =>
      call(gatewayApi.PUT('/api/v1/me/password', { body })),
  });
}

/** `POST /api/v1/me/email-verification`: a new link to the user's address (429 when asked too often). */
export function useSendVerification() {
  return useMutation({
    mutationFn: () => call(gatewayApi.POST('/api/v1/me/email-verification')),
  });
}

/** `POST /api/v1/password/forgot`: the same 202 whether or not an account has the address; 429 when asked too often. */
export function useForgotPassword() {
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: (email: string) => call(gatewayApi.POST('/api/v1/password/forgot', { body: { email } })),
  });
}

/** `POST /api/v1/password/reset`: 204, or 422 `reset_link_invalid` (used, expired or unknown link). */
export function useResetPassword() {
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: (body: { token: string; password: string; password_confirmation: string }) =>
      call(gatewayApi.POST('/api/v1/password/reset', { body })),
  });
}

/** `POST /api/v1/email/verify`: 204, or 422 `verification_link_invalid`. */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: (token: string) => call(gatewayApi.POST('/api/v1/email/verify', { body: { token } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ME_KEY }),
  });
}

/** The secret of an e-mailed link: `#token=<secret>` (a fragment: never sent to servers or in Referer). */
export function linkTokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** The browser's IANA time zone (`Europe/Paris`), the profile's default. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA time zone name the browser knows, `UTC` included, sorted. */
export function timeZones(): string[] {
  const all = new Set<string>(Intl.supportedValuesOf('timeZone'));
  all.add('UTC');
  return [...all].sort();
}
