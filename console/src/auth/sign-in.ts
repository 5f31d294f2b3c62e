import { useMutation } from '@tanstack/react-query';
import i18n from 'i18next';
import { call, gatewayApi } from '../api/client.ts';
import { renewBrowserSession } from '../api/csrf.ts';
import { useSessionChanged } from './session.ts';

/** What the console names the token that login and register answer with (revoked at once). */
const DEVICE_NAME = 'Fieldhouse console';

/**
 * Revokes the personal access token that login and register answer with (`<id>|<secret>`,
 * spec 4.1): the console is signed in by its session cookie and never keeps a bearer token, so
 * none is left alive unused. A failure here is not the user's: it is ignored (the token stays
 * listed on the tokens page, where it can be revoked).
 */
async function revokeAnswerToken(token: string) {
  const id = Number(token.split('|')[0]);
  if (!Number.isSafeInteger(id)) return;
  await gatewayApi
    .DELETE('/api/v1/tokens/{token_id}', { params: { path: { token_id: String(id) } } })
    .catch(() => undefined);
}

/**
 * Saves this browser's language and time zone to the new account (`PATCH /api/v1/me`), so the
 * e-mails it gets are in the language it registered in, with local times. Best effort: a
 * failure leaves them unset (the profile page proposes them again).
 */
async function keepBrowserPreferences() {
  const language = i18n.resolvedLanguage === 'fr' ? 'fr' : 'en';
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  await gatewayApi
    .PATCH('/api/v1/me', { body: { language, ...(timeZone ? { time_zone: timeZone } : {}) } })
    .catch(() => undefined);
}

/**
 * Signs this browser's session in (`POST /api/v1/login`, spec 5.2 for SPAs) after starting a
 * fresh session; then forgets what was cached for the previous user. Errors are the form's:
 * 401 `invalid_credentials`, 422, 429 with `Retry-After` (no sign-in redirect on 401).
 */
export function useSignIn() {
  const sessionChanged = useSessionChanged();
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: async (credentials: { email: string; password: string }) => {
      await renewBrowserSession();
      const answer = await call(
        gatewayApi.POST('/api/v1/login', { body: { ...credentials, device_name: DEVICE_NAME } }),
      );
      await revokeAnswerToken(answer.token);
      return answer.user;
    },
    onSuccess: sessionChanged,
  });
}

/**
 * Creates an account and signs this browser's session in (`POST /api/v1/register`): 201, or 422
 * with `errors` (e-mail taken, fields), 403 `registration_disabled`.
 */
export function useRegister() {
  const sessionChanged = useSessionChanged();
  return useMutation({
    meta: { signInOn401: false },
    mutationFn: async (account: {
      name: string;
      email: string;
      password: string;
      password_confirmation: string;
    }) => {
      await renewBrowserSession();
      const answer = await call(gatewayApi.POST('/api/v1/register', { body: account }));
      await revokeAnswerToken(answer.token);
      await keepBrowserPreferences();
      return answer.user;
    },
    onSuccess: sessionChanged,
  });
}
