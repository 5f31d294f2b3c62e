import { Divider, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CreateTokenForm } from './CreateTokenForm.tsx';
import { SessionsList } from './SessionsList.tsx';
import { TokensTable } from './TokensTable.tsx';

/**
 * `/settings/tokens`: personal access tokens ("created in the web interface under the settings
 * for API tokens", spec 5.2) — create, list, revoke — and the user's browser sessions.
 */
export function TokensPage() {
  const { t } = useTranslation('tokens');
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      <section aria-labelledby="create-token">
        <Title order={2} size="h3" id="create-token" mb="sm">
          {t('create.title')}
        </Title>
        <CreateTokenForm />
      </section>
      <section aria-labelledby="your-tokens">
        <Title order={2} size="h3" id="your-tokens" mb="sm">
          {t('list.title')}
        </Title>
        <TokensTable />
      </section>
      <Divider />
      <section aria-labelledby="your-sessions">
        <Title order={2} size="h3" id="your-sessions" mb="sm">
          {t('sessions.title')}
        </Title>
        <SessionsList />
      </section>
    </Stack>
  );
}
