import '../app/full-styles.ts';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A console path that names no page. */
export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <Stack align="flex-start">
      <Title order={1}>{t('notFound.title')}</Title>
      <Text>{t('notFound.body')}</Text>
      <Button component={Link} to="/">
        {t('nav.home')}
      </Button>
    </Stack>
  );
}
