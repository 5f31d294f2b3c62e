import { Suspense } from 'react';
import { Box, Container, Group } from '@mantine/core';
import { Outlet } from 'react-router';
import { PageLoader } from '../components/PageLoader.tsx';
import { Brand } from './Brand.tsx';
import { ColorSchemeToggle } from './ColorSchemeToggle.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

/**
 * The frame of the pages anyone may open (sign-in, register, voting, live results): a slim
 * header and one centred column, mobile first. Kept light: the voting page loads with it.
 */
export function PublicLayout() {
  return (
    <Box mih="100vh">
      <Box
        component="header"
        px="md"
        py="xs"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Brand />
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <ColorSchemeToggle />
          </Group>
        </Group>
      </Box>
      <Container component="main" size="sm" px="md" py="lg">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
