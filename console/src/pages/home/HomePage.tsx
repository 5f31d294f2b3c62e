import '../../app/full-styles.ts';
import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarEvent, IconChartBar, IconClipboardList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { useMe } from '../../auth/session.ts';
import { PageLoader } from '../../components/PageLoader.tsx';

/** The three jobs of Fieldhouse, each with its icon and the keys of its title and text. */
const JOBS = [
  { key: 'collect', icon: IconClipboardList },
  { key: 'polls', icon: IconChartBar },
  { key: 'events', icon: IconCalendarEvent },
] as const;

/**
 * `/` signed out: what Fieldhouse does (field data collection with an offline web form, live
 * polls with their results, event invitations with a door scanner), each in a few lines, and the
 * way in: create an account or sign in. A signed-in visitor goes straight to the start page. Its
 * own lazy chunk, in the public frame: the voting page's code does not grow with it.
 */
export function HomePage() {
  const { t } = useTranslation('home');
  const me = useMe();
  if (me.isPending) return <PageLoader />;
  if (me.data) return <Navigate to="/start" replace />;
  return (
    <Stack gap="xl" py={{ base: 0, sm: 'md' }}>
      <Stack gap="sm">
        <Title order={1}>{t('title')}</Title>
        <Text size="lg">{t('lead')}</Text>
        <Group gap="sm">
          <Button component={Link} to="/register" size="md">
            {t('register')}
          </Button>
          <Button component={Link} to="/sign-in" size="md" variant="default">
            {t('signIn')}
          </Button>
        </Group>
      </Stack>
      <Stack gap="md" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {JOBS.map((job) => (
          <Card key={job.key} component="li" withBorder padding="md" aria-labelledby={`job-${job.key}`}>
            <Group gap="md" align="flex-start" wrap="nowrap">
              <ThemeIcon variant="light" size="xl" aria-hidden>
                <job.icon size={24} />
              </ThemeIcon>
              <Stack gap={4}>
                <Title order={2} size="h4" id={`job-${job.key}`}>
                  {t(`jobs.${job.key}.title`)}
                </Title>
                <Text size="sm">{t(`jobs.${job.key}.text`)}</Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </Stack>
      <Text size="sm" c="dimmed">
        {t('noAccountNeeded')}
      </Text>
    </Stack>
  );
}
