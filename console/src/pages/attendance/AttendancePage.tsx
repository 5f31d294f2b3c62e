import { useMemo } from 'react';
import { Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { EventHeader } from '../events/EventHeader.tsx';
import { GateFigures } from './GateFigures.tsx';
import { VegaChart } from '../project-data/VegaChart.tsx';
import { useAttendance, type Attendance } from './use-attendance.ts';

/**
 * The Vega-Lite bars of arrivals, one per 10-minute window, labelled with the window's start in
 * the reader's language and zone (an ordinal axis: one window is one bar, not a time span).
 */
function arrivalsSpec(
  arrivals: Attendance['arrivals'],
  label: (iso: string) => string,
  x: string,
  y: string,
): Record<string, unknown> {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    height: 220,
    data: { values: arrivals.map((a) => ({ window: label(a.from), count: a.count })) },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'window', type: 'ordinal', sort: null, title: x, axis: { labelAngle: 0 } },
      y: { field: 'count', type: 'quantitative', title: y, axis: { tickMinStep: 1 } },
    },
  };
}

/**
 * `/events/{event_id}/attendance` (owner and staff): total, present, absent and rate, arrivals
 * per 10 minutes as a chart (vega-embed) with its data table, and the latest check-ins with who
 * scanned (scanner device or user) and when — live, asked again every 2 s without a reload.
 */
export function AttendancePage() {
  const { t, i18n } = useTranslation('attendance');
  const eventId = useParams().eventId ?? '';
  const live = useAttendance(eventId);
  const time = useMemo(
    () => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { timeStyle: 'short' }),
    [i18n.resolvedLanguage],
  );
  const arrivals = live.data?.arrivals;
  const spec = useMemo(
    () =>
      arrivals
        ? arrivalsSpec(arrivals, (iso) => time.format(new Date(iso)), t('chart.x'), t('chart.y'))
        : undefined,
    [arrivals, time, t],
  );

  return (
    <Stack gap="lg">
      <EventHeader eventId={eventId} title={(name) => t('title', { name })}>
        <Text size="sm" c="dimmed">
          {t('live')}
        </Text>
      </EventHeader>
      <ProblemAlert error={live.error} />
      {live.isPending ? (
        <PageLoader />
      ) : live.data ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} role="group" aria-label={t('stats.label')}>
            {(['total', 'present', 'absent', 'taux'] as const).map((k) => (
              <Card key={k} withBorder padding="md" data-testid={`stat-${k}`}>
                <Text size="sm" c="dimmed">
                  {t(`stats.${k}`)}
                </Text>
                <Text fz={32} fw={700}>
                  {k === 'taux' ? `${live.data.stats.taux} %` : live.data.stats[k]}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <section aria-labelledby="arrivals-title">
            <Title order={2} size="h3" id="arrivals-title" mb="sm">
              {t('chart.title')}
            </Title>
            {live.data.arrivals.length === 0 ? (
              <Text c="dimmed">{t('chart.empty')}</Text>
            ) : (
              <>
                <VegaChart spec={spec!} title={t('chart.title')} />
                <details>
                  <summary>{t('chart.table')}</summary>
                  <Table aria-label={t('chart.title')}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">{t('chart.x')}</Table.Th>
                        <Table.Th scope="col">{t('chart.y')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {live.data.arrivals.map((a) => (
                        <Table.Tr key={a.from}>
                          <Table.Td>{time.format(new Date(a.from))}</Table.Td>
                          <Table.Td>{a.count}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </details>
              </>
            )}
          </section>
          <GateFigures gates={live.data.gates} />
          <section aria-labelledby="latest-title">
            <Title order={2} size="h3" id="latest-title" mb="sm">
              {t('latest.title')}
            </Title>
            {live.data.latest.length === 0 ? (
              <Text c="dimmed">{t('latest.empty')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={0}>
                <Table striped aria-label={t('latest.title')} data-testid="latest-checkins">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('latest.time')}</Table.Th>
                      <Table.Th scope="col">{t('latest.name')}</Table.Th>
                      <Table.Th scope="col">{t('latest.by')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {live.data.latest.map((l) => (
                      <Table.Tr key={`${l.invite_id}-${l.checked_in_at}`}>
                        <Table.Td>{time.format(new Date(l.checked_in_at))}</Table.Td>
                        <Table.Th scope="row" fw={500}>
                          {l.nom}
                        </Table.Th>
                        <Table.Td>
                          {l.scanner_device
                            ? t('latest.device', { name: l.scanner_device.name })
                            : (l.scanne_par ?? l.user_name ?? '')}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </section>
        </>
      ) : null}
    </Stack>
  );
}
