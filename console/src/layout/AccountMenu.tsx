import { Button, Menu, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconKey, IconLock, IconLogout, IconUser, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { call, gatewayApi } from '../api/client.ts';
import { useLanguageSync } from '../auth/language-sync.ts';
import { useSessionChanged, type Account } from '../auth/session.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';

/**
 * The signed-in user's menu: who is signed in (and whether their e-mail is confirmed), profile,
 * password, API tokens, sign out (ends the session). It also keeps the console's language and
 * the account's together (useLanguageSync).
 */
export function AccountMenu({ account }: { account: Account }) {
  const { t } = useTranslation('common');
  useLanguageSync(account);
  const navigate = useNavigate();
  const sessionChanged = useSessionChanged();
  const signOut = useMutation({
    mutationFn: () => call(gatewayApi.POST('/api/v1/logout')),
    onSuccess: async () => {
      await sessionChanged();
      await navigate('/sign-in');
    },
  });
  return (
    <>
      {/* No focus placeholder: a tabindex on a presentational child of role="menu" fails axe. */}
      <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button
            variant="subtle"
            leftSection={<IconUserCircle size={22} aria-hidden />}
            aria-label={t('account.menu', { name: account.name })}
          >
            <Text size="sm" visibleFrom="sm">
              {account.name}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {/* No Menu.Label: a role="menu" may hold menu items only (axe aria-required-children). */}
          <Menu.Item component={Link} to="/settings/profile" leftSection={<IconUser size={16} aria-hidden />}>
            <Text size="sm">{t('account.profile')}</Text>
            <Text size="xs" c="dimmed">
              {account.email}
            </Text>
            {account.email_verified_at ? null : (
              <Text size="xs" fw={600} data-testid="menu-unverified">
                {t('account.unverified')}
              </Text>
            )}
          </Menu.Item>
          <Menu.Item
            component={Link}
            to="/settings/password"
            leftSection={<IconLock size={16} aria-hidden />}
          >
            {t('account.password')}
          </Menu.Item>
          <Menu.Item component={Link} to="/settings/tokens" leftSection={<IconKey size={16} aria-hidden />}>
            {t('nav.tokens')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={() => signOut.mutate()}
            disabled={signOut.isPending}
          >
            {t('account.signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {signOut.error ? <ProblemAlert error={signOut.error} /> : null}
    </>
  );
}
