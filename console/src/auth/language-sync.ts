import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { call, gatewayApi } from '../api/client.ts';
import { LANGUAGES, setLanguage, type Language } from '../i18n/index.ts';
import { ME_KEY, type Account } from './session.ts';

const isLanguage = (l: string | null | undefined): l is Language =>
  (LANGUAGES as readonly string[]).includes(l ?? '');

/**
 * Keeps the console's language and the account's together while signed in (docs/console.md,
 * "Accounts"): the language the server keeps for the user is applied when it is loaded or
 * changes (another browser, the profile page); a switch in the header is saved to the account
 * (`PATCH /api/v1/me`), so the e-mails the user gets follow it too. A failed save is ignored:
 * the switch still applies in this browser.
 */
export function useLanguageSync(account: Account) {
  const client = useQueryClient();
  const saved = account.language;
  useEffect(() => {
    if (isLanguage(saved) && saved !== i18n.resolvedLanguage) void setLanguage(saved);
  }, [saved]);
  useEffect(() => {
    const onChange = (lng: string) => {
      const language = lng.split('-')[0];
      // The cache, not `saved`: a profile save updates it before this listener is renewed.
      const current = client.getQueryData<Account | null>(ME_KEY)?.language ?? saved;
      if (!isLanguage(language) || language === current) return;
      call(gatewayApi.PATCH('/api/v1/me', { body: { language } })).then(
        (answer) => client.setQueryData(ME_KEY, answer.data),
        () => undefined,
      );
    };
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [saved, client]);
}
