import { useMemo } from 'react';
import { Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { VegaChart } from '../project-data/VegaChart.tsx';
import type { Attendance } from './use-attendance.ts';

type Gates = Attendance['gates'];

/** Vega-Lite lines of people inside per gate, one point per 10-minute window with scans. */
function insideSpec(
  points: Array<{ gate: string; window: string; inside: number }>,
  x: string,
  y: string,
  legend: string,
): Record<string, unknown> {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    height: 220,
    data: { values: points },
    mark: { type: 'line', point: true, tooltip: true },
    encoding: {
      x: { field: 'window', type: 'ordinal', sort: null, title: x, axis: { labelAngle: 0 } },
      y: { field: 'inside', type: 'quantitative', title: y, axis: { tickMinStep: 1 } },
      color: { field: 'gate', type: 'nominal', title: legend },
    },
  };
}

/**
 * The gates part of the attendance page (docs/events.md, "Gates"): inside now, entries and exits
 * per gate and for the event, people inside per gate over time (chart and table), and arrivals
 * per invite type (people arrived of the seats).
 */
export function GateFigures(props: { gates: Gates }) {
  const { t, i18n } = useTranslation(['attendance', 'invites']);
  const { gates } = props;
  const time = useMemo(
    () => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { timeStyle: 'short' }),
    [i18n.resolvedLanguage],
  );
  const nameOf = useMemo(() => {
    const names = new Map(gates.gates.map((g) => [g.id, g.name ?? t('gates.implicit')]));
    return (id: string | null) => names.get(id) ?? t('gates.implicit');
  }, [gates.gates, t]);
  const points = useMemo(
    () =>
      gates.inside_over_time.map((p) => ({
        gate: nameOf(p.gate_id),
        window: time.format(new Date(p.from)),
        inside: p.inside,
      })),
    [gates.inside_over_time, nameOf, time],
  );
  const spec = useMemo(
    () => insideSpec(points, t('gates.overTime.x'), t('gates.overTime.y'), t('gates.gate')),
    [points, t],
  );
  return (
    <>
      <section aria-labelledby="gates-title">
        <Title order={2} size="h3" id="gates-title" mb="sm">
          {t('gates.title')}
        </Title>
        <Text size="sm" mb="xs" data-testid="inside-now">
          {t('gates.summary', { inside: gates.inside, entries: gates.entries, exits: gates.exits })}
        </Text>
        <Table.ScrollContainer minWidth={0}>
          <Table striped aria-labelledby="gates-title" data-testid="gate-figures">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('gates.gate')}</Table.Th>
                <Table.Th scope="col">{t('gates.inside')}</Table.Th>
                <Table.Th scope="col">{t('gates.entries')}</Table.Th>
                <Table.Th scope="col">{t('gates.exits')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {gates.gates.map((g) => (
                <Table.Tr key={g.id ?? 'implicit'}>
                  <Table.Th scope="row" fw={500}>
                    {g.name ?? t('gates.implicit')}
                  </Table.Th>
                  <Table.Td>{g.inside}</Table.Td>
                  <Table.Td>{g.entries}</Table.Td>
                  <Table.Td>{g.exits}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </section>
      <section aria-labelledby="inside-title">
        <Title order={2} size="h3" id="inside-title" mb="sm">
          {t('gates.overTime.title')}
        </Title>
        {points.length === 0 ? (
          <Text c="dimmed">{t('gates.overTime.empty')}</Text>
        ) : (
          <>
            <VegaChart spec={spec} title={t('gates.overTime.title')} />
            <details>
              <summary>{t('chart.table')}</summary>
              <Table aria-label={t('gates.overTime.title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('gates.overTime.x')}</Table.Th>
                    <Table.Th scope="col">{t('gates.gate')}</Table.Th>
                    <Table.Th scope="col">{t('gates.overTime.y')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {points.map((p) => (
                    <Table.Tr key={`${p.gate}-${p.window}`}>
                      <Table.Td>{p.window}</Table.Td>
                      <Table.Td>{p.gate}</Table.Td>
                      <Table.Td>{p.inside}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </details>
          </>
        )}
      </section>
      <section aria-labelledby="types-title">
        <Title order={2} size="h3" id="types-title" mb="sm">
          {t('gates.byType.title')}
        </Title>
        <Table.ScrollContainer minWidth={0}>
          <Table striped aria-labelledby="types-title" data-testid="arrivals-by-type">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('gates.byType.type')}</Table.Th>
                <Table.Th scope="col">{t('gates.byType.arrived')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {gates.arrivals_by_type.map((r) => (
                <Table.Tr key={r.type_invite}>
                  <Table.Th scope="row" fw={500}>
                    {t(`invites:types.${r.type_invite}`)}
                  </Table.Th>
                  <Table.Td>{t('gates.byType.of', { arrived: r.arrived, seats: r.seats })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </section>
    </>
  );
}
