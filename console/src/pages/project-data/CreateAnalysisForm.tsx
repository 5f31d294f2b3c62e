import { ActionIcon, Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Field } from '../collection/types.ts';
import { useAnalysisMutations, type AnalysisRequest } from './use-analyses.ts';

type Kind = AnalysisRequest['charts'][number]['kind'];
const KINDS: readonly Kind[] = ['choice_counts', 'histogram', 'over_time', 'map', 'status'];
/** The field types each chart kind takes (docs/collection.md, "Analyses and charts"); none for the others. */
const KIND_TYPES: Record<Kind, readonly Field['type'][] | null> = {
  choice_counts: ['select_one', 'select_multiple'],
  histogram: ['integer', 'decimal'],
  map: ['geopoint'],
  over_time: null,
  status: null,
};

interface ChartValues {
  title: string;
  kind: Kind;
  field: string;
  split_by: string;
}
const newChart = (): ChartValues => ({ title: '', kind: 'choice_counts', field: '', split_by: '' });

/**
 * Creates an analysis: a name and one or more charts, each a kind with the fields its kind
 * accepts (from the published form), and an optional split by a single-choice field. The
 * service's 422 (`charts.<i>.field`...) shows under the chart it names.
 */
export function CreateAnalysisForm({ projectId, fields }: { projectId: number; fields: Field[] }) {
  const { t } = useTranslation('projectData');
  const { create } = useAnalysisMutations(projectId);
  const form = useForm<{ name: string; charts: ChartValues[] }>({
    initialValues: { name: '', charts: [newChart()] },
    validate: {
      name: (v) => (v.trim() ? null : t('analyses.errors.name')),
      charts: {
        title: (v) => (v.trim() ? null : t('analyses.errors.title')),
        field: (v, values, path) => {
          const i = Number(path.split('.')[1]);
          return KIND_TYPES[values.charts[i]!.kind] && !v ? t('analyses.errors.field') : null;
        },
      },
    },
  });
  const options = (kind: Kind) => fields.filter((f) => KIND_TYPES[kind]?.includes(f.type));
  const splitOptions = fields.filter((f) => f.type === 'select_one');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="new-analysis">
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(
            {
              name: v.name.trim(),
              charts: v.charts.map((c) => ({
                title: c.title.trim(),
                kind: c.kind,
                ...(KIND_TYPES[c.kind] ? { field: c.field } : {}),
                ...(c.split_by && (c.kind === 'choice_counts' || c.kind === 'over_time')
                  ? { split_by: c.split_by }
                  : {}),
              })),
            },
            { onSuccess: () => form.reset(), onError: (err) => form.setErrors(fieldErrorsOf(err)) },
          ),
        )}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="new-analysis">
            {t('analyses.new')}
          </Title>
          <TextInput label={t('analyses.name')} required {...form.getInputProps('name')} />
          {form.values.charts.map((chart, i) => (
            <Group key={i} align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label={t('analyses.chartTitle', { n: i + 1 })}
                required
                style={{ flex: '2 1 12rem' }}
                {...form.getInputProps(`charts.${i}.title`)}
              />
              <NativeSelect
                label={t('analyses.kind', { n: i + 1 })}
                data={KINDS.map((k) => ({ value: k, label: t(`analyses.kinds.${k}`) }))}
                style={{ flex: '1 1 10rem' }}
                {...form.getInputProps(`charts.${i}.kind`)}
              />
              {KIND_TYPES[chart.kind] ? (
                <NativeSelect
                  label={t('analyses.field', { n: i + 1 })}
                  data={[
                    { value: '', label: t('analyses.chooseField') },
                    ...options(chart.kind).map((f) => ({ value: f.name, label: f.label })),
                  ]}
                  style={{ flex: '1 1 10rem' }}
                  {...form.getInputProps(`charts.${i}.field`)}
                />
              ) : null}
              {(chart.kind === 'choice_counts' || chart.kind === 'over_time') && splitOptions.length ? (
                <NativeSelect
                  label={t('analyses.splitBy', { n: i + 1 })}
                  data={[
                    { value: '', label: t('analyses.noSplit') },
                    ...splitOptions.map((f) => ({ value: f.name, label: f.label })),
                  ]}
                  style={{ flex: '1 1 10rem' }}
                  {...form.getInputProps(`charts.${i}.split_by`)}
                />
              ) : null}
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mt={26}
                disabled={form.values.charts.length <= 1}
                aria-label={t('analyses.removeChart', { n: i + 1 })}
                onClick={() => form.removeListItem('charts', i)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => form.insertListItem('charts', newChart())}
            >
              {t('analyses.addChart')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('analyses.create')}
            </Button>
          </Group>
          <ProblemAlert error={create.error} />
        </Stack>
      </form>
    </Paper>
  );
}
