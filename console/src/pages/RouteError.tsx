import { Alert, Button, Container, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shown instead of a blank page when a page fails to load or render. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation('common');
  const detail = String((error as Error)?.message ?? error);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Alert color="red" title={t('errors.page')} role="alert">
          {detail}
        </Alert>
        <Button component={Link} to="/" variant="light">
          {t('nav.home')}
        </Button>
      </Stack>
    </Container>
  );
}
