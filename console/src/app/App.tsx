import { Suspense, useEffect } from 'react';
import { createTheme, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { BrowserRouter, useLocation, useNavigate } from 'react-router';
import { signInPathFor } from '../auth/sign-in-path.ts';
import { ME_KEY } from '../auth/me-key.ts';
import { PageLoader } from '../components/PageLoader.tsx';
import { RouteError } from '../pages/RouteError.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { setUnauthenticatedHandler } from './query-client.ts';
import { AppRoutes } from './routes.tsx';

/** Mantine's theme, with shades dark enough for WCAG AA contrast (4.5:1) on both schemes. */
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  // No transitions for users who asked their system for reduced motion.
  respectReducedMotion: true,
});

/** Dimmed text, errors and placeholders: Mantine's defaults miss 4.5:1 on white. */
const contrast: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    // Green, yellow and orange text on their shade 1 (light alerts, badges) misses 4.5:1 even at
    // shade 9: darker ones.
    '--mantine-color-green-light-color': '#1e6b2f',
    '--mantine-color-green-text': '#1e6b2f',
    '--mantine-color-yellow-light-color': '#6b4200',
    '--mantine-color-yellow-text': '#6b4200',
    '--mantine-color-orange-light-color': '#8a3c00',
    '--mantine-color-orange-text': '#8a3c00',
    '--mantine-color-dimmed': t.colors.gray[7]!,
    '--mantine-color-error': t.colors.red[9]!,
    '--mantine-color-placeholder': t.colors.gray[7]!,
  },
  dark: {
    ...Object.fromEntries(
      ['blue', 'green', 'yellow', 'red', 'gray'].map((c) => [
        `--mantine-color-${c}-light-color`,
        t.colors[c]![3]!,
      ]),
    ),
    '--mantine-color-anchor': t.colors.blue[3]!,
    '--mantine-color-dimmed': t.colors.dark[1]!,
    '--mantine-color-error': t.colors.red[4]!,
  },
});

/** Sends the user to sign-in, then back to the page they were on, when any call answers 401. */
function SignInOn401({ queryClient }: { queryClient: QueryClient }) {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    setUnauthenticatedHandler(() => {
      if (location.pathname === '/sign-in') return;
      queryClient.setQueryData(ME_KEY, null);
      void navigate(signInPathFor(location), { replace: true });
    });
  }, [navigate, location, queryClient]);
  return null;
}

function Pages() {
  const location = useLocation();
  return (
    <ErrorBoundary resetKey={location.pathname} fallback={(error) => <RouteError error={error} />}>
      <Suspense fallback={<PageLoader />}>
        <AppRoutes />
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * The console: Mantine (theme; light/dark from the system unless chosen), TanStack Query for
 * server state, React Router. A 401 from any call sends the user to the sign-in page with the
 * page they were on as `next`.
 */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={contrast} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <SignInOn401 queryClient={queryClient} />
          <Pages />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
