import { useState } from 'react';
import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Analysis, ChartView } from '../collection/types.ts';
import { useCharts } from './use-analyses.ts';
import { VegaChart } from './VegaChart.tsx';

/** A chart's rows as a table: the accessible alternative to the drawing. */
function ChartData({ chart }: { chart: ChartView }) {
  const { t } = useTranslation('projectData');
  const columns = Object.keys(chart.data[0] ?? {});
  if (!columns.length) return <Text c="dimmed">{t('analyses.noData')}</Text>;
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table aria-label={t('analyses.dataOf', { title: chart.chart.title })}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {chart.data.slice(0, 200).map((row, i) => (
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c}>{String(row[c] ?? '')}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** One chart: its title, the Vega-Lite drawing, the SVG download and its data on demand. */
function ChartBlock({ chart }: { chart: ChartView }) {
  const { t } = useTranslation('projectData');
  const [showData, setShowData] = useState(false);
  return (
    <Stack gap="xs">
      <Title order={4} size="h5">
        {chart.chart.title}
      </Title>
      <VegaChart spec={chart.vega_lite} title={chart.chart.title} />
      <Group gap="md">
        <Anchor href={chart.svg_url} download={`${chart.chart.title}.svg`} underline="always">
          {t('analyses.svg')}
        </Anchor>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => setShowData((v) => !v)}
          aria-expanded={showData}
        >
          {showData ? t('analyses.hideData') : t('analyses.showData')}
        </Button>
      </Group>
      {showData ? <ChartData chart={chart} /> : null}
    </Stack>
  );
}

/**
 * An analysis with its charts, computed by the service at each request and drawn from its
 * Vega-Lite specifications; deletion for the roles that manage the project.
 */
export function AnalysisCard(props: {
  analysis: Analysis;
  mayDelete: boolean;
  onDelete: (a: Analysis) => void;
}) {
  const { t } = useTranslation('projectData');
  const charts = useCharts(props.analysis.id);
  return (
    <Paper withBorder p="md" component="article" aria-labelledby={`analysis-${props.analysis.id}`}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} size="h4" id={`analysis-${props.analysis.id}`}>
            {props.analysis.name}
          </Title>
          {props.mayDelete ? (
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={() => props.onDelete(props.analysis)}
              aria-label={t('analyses.delete', { name: props.analysis.name })}
            >
              {t('analyses.deleteShort')}
            </Button>
          ) : null}
        </Group>
        {props.analysis.description ? <Text size="sm">{props.analysis.description}</Text> : null}
        {charts.isPending ? (
          <PageLoader />
        ) : charts.error ? (
          <ProblemAlert error={charts.error} />
        ) : (
          charts.data.map((chart) => <ChartBlock key={chart.index} chart={chart} />)
        )}
      </Stack>
    </Paper>
  );
}
