import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { deviceName } from './device-name.ts';
import { useEndOtherSessions, useSessions } from './use-tokens.ts';

/**
 * The user's signed-in browser sessions (device, address, last activity; this one marked) and
 * "sign out everywhere else", which ends every other one at once.
 */
export function SessionsList() {
  const { t } = useTranslation('tokens');
  const when = useFormatInstant();
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  if (sessions.isPending) return <PageLoader />;
  if (sessions.error) return <ProblemAlert error={sessions.error} />;
  const list = sessions.data.data;
  const others = list.filter((s) => !s.current).length;
  return (
    <Stack gap="sm">
      <Stack
        gap="xs"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t('sessions.label')}
      >
        {list.map((s) => (
          <Paper component="li" key={s.id} withBorder p="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Text
                  size="sm"
                  fw={500}
                  style={{ wordBreak: 'break-word' }}
                  title={s.user_agent ?? undefined}
                >
                  {deviceName(s.user_agent) ?? t('sessions.unknownDevice')}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('sessions.detail', { ip: s.ip ?? '?', when: when(s.last_activity_at) })}
                </Text>
              </Stack>
              {s.current ? <Badge variant="light">{t('sessions.current')}</Badge> : null}
            </Group>
          </Paper>
        ))}
      </Stack>
      <Group>
        <Button
          variant="light"
          color="red"
          disabled={others === 0}
          loading={endOthers.isPending}
          onClick={() => endOthers.mutate()}
        >
          {t('sessions.endOthers')}
        </Button>
        <Text size="sm" c="dimmed">
          {others === 0 ? t('sessions.noOthers') : t('sessions.others', { count: others })}
        </Text>
      </Group>
      <ProblemAlert error={endOthers.error} />
    </Stack>
  );
}
