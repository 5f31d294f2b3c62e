import '../app/full-styles.ts';
import { Suspense } from 'react';
import { AppShell, Burger, Group, NavLink } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import { useDisclosure } from '@mantine/hooks';
import { IconCalendarEvent, IconChartBar, IconFolders, IconKey, IconRocket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { signInPathFor } from '../auth/sign-in-path.ts';
import { useMe } from '../auth/session.ts';
import { PageLoader } from '../components/PageLoader.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { Brand } from './Brand.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

/** The console's navigation; later areas add their entries here. */
const NAV = [
  { to: '/start', label: 'nav.start', icon: IconRocket },
  { to: '/workspaces', label: 'nav.workspaces', icon: IconFolders, also: '/projects' },
  { to: '/polls', label: 'nav.polls', icon: IconChartBar },
  { to: '/events', label: 'nav.events', icon: IconCalendarEvent },
  { to: '/settings/tokens', label: 'nav.tokens', icon: IconKey },
] as const;

/** Whether a navigation entry is the current page's (a project's pages belong to workspaces). */
const isCurrent = (item: (typeof NAV)[number], pathname: string) =>
  pathname.startsWith(item.to) || ('also' in item && pathname.startsWith(item.also));

/**
 * The frame of the signed-in pages: header (brand, language, colour scheme, account menu),
 * a navigation bar (a drawer behind a burger on phones) and the page. Signed-out visitors are
 * sent to the sign-in page, which brings them back here.
 */
export function ConsoleLayout() {
  const { t } = useTranslation('common');
  const location = useLocation();
  const me = useMe();
  const [opened, { toggle, close }] = useDisclosure();
  if (me.isPending) return <PageLoader />;
  if (me.error) return <ProblemAlert error={me.error} />;
  if (!me.data) return <Navigate to={signInPathFor(location)} replace />;
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <Notifications position="top-right" />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />
            <Brand />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <ColorSchemeToggle />
            <AccountMenu account={me.data} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.label')}>
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={t(item.label)}
            leftSection={<item.icon size={18} aria-hidden />}
            active={isCurrent(item, location.pathname)}
            aria-current={isCurrent(item, location.pathname) ? 'page' : undefined}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
