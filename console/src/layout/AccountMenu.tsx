import { Button, Menu, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { call, gatewayApi } from '../api/client.ts';
import { useSessionChanged, type Account } from '../auth/session.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';

/** The signed-in user's menu: who is signed in, API tokens, sign out (ends the session). */
export function AccountMenu({ account }: { account: Account }) {
  const { t } = useTranslation('common');
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
      <Menu position="bottom-end" withinPortal>
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
          <Menu.Label>{account.email}</Menu.Label>
          <Menu.Item component={Link} to="/settings/tokens" leftSection={<IconKey size={16} aria-hidden />}>
            {t('nav.tokens')}
          </Menu.Item>
          <Menu.Item
            color="red"
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
