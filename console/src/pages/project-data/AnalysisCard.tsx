import { useMemo, useState } from 'react';
import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Analysis, ChartView, Field } from '../collection/types.ts';
import { readableChart, type ChartColumn, type ReadableChart } from './chart-spec.ts';
import { useCharts } from './use-analyses.ts';
import { chartSvg, VegaChart } from './VegaChart.tsx';

/** Saves `text` as a file named `name` (a temporary link click). */
function download(text: string, type: string, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** A chart's rows as a table, labelled as the chart is: the accessible alternative to the drawing. */
function ChartData({ chart, readable }: { chart: ChartView; readable: ReadableChart }) {
  const { t, i18n } = useTranslation('projectData');
  const lang = i18n.resolvedLanguage ?? 'en';
  const show = (value: unknown, format: ChartColumn['format']) =>
    format === 'share'
      ? Number(value).toLocaleString(lang, { style: 'percent', maximumFractionDigits: 1 })
      : typeof value === 'number'
        ? value.toLocaleString(lang, { maximumFractionDigits: 6 })
        : String(value ?? '');
  if (!readable.rows.length) return <Text c="dimmed">{t('analyses.noData')}</Text>;
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table aria-label={t('analyses.dataOf', { title: chart.chart.title })}>
        <Table.Thead>
          <Table.Tr>
            {readable.columns.map((c) => (
              <Table.Th key={c.key} scope="col">
                {c.title}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {readable.rows.slice(0, 200).map((row, i) => (
            <Table.Tr key={i}>
              {readable.columns.map((c) => (
                <Table.Td key={c.key}>{show(row[c.key], c.format)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One chart: its title, the drawing (labels and titles in the reader's language), the SVG
 * download (the same drawing, light) and its data on demand.
 */
function ChartBlock({ chart, fields }: { chart: ChartView; fields: readonly Field[] }) {
  const { t, i18n } = useTranslation(['projectData', 'projectViews', 'collection']);
  const [showData, setShowData] = useState(false);
  const [saving, setSaving] = useState(false);
  const language = i18n.resolvedLanguage;
  const readable = useMemo(() => readableChart(chart, fields, t), [chart, fields, t]);
  const saveSvg = async () => {
    setSaving(true);
    try {
      download(await chartSvg(readable.spec, language), 'image/svg+xml', `${chart.chart.title}.svg`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={4} size="h5">
        {chart.chart.title}
      </Title>
      <VegaChart spec={readable.spec} title={chart.chart.title} />
      <Group gap="md">
        <Button size="compact-sm" variant="default" onClick={() => void saveSvg()} loading={saving}>
          {t('analyses.svg')}
        </Button>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => setShowData((v) => !v)}
          aria-expanded={showData}
        >
          {showData ? t('analyses.hideData') : t('analyses.showData')}
        </Button>
      </Group>
      {showData ? <ChartData chart={chart} readable={readable} /> : null}
    </Stack>
  );
}

/**
 * An analysis with its charts, computed by the service at each request and drawn from its
 * Vega-Lite specifications; deletion for the roles that manage the project.
 */
export function AnalysisCard(props: {
  analysis: Analysis;
  /** The current form version's fields: the labels of the charts' questions and choices. */
  fields: readonly Field[];
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
          charts.data.map((chart) => <ChartBlock key={chart.index} chart={chart} fields={props.fields} />)
        )}
      </Stack>
    </Paper>
  );
}
