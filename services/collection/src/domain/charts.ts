import type { ChartKind, ChartDef } from './types.ts';
export { CHART_KINDS, type ChartKind, type ChartDef } from './types.ts';

/** Field types each kind needs for `field` (none: the kind takes no field). */
export const KIND_FIELD_TYPES: Record<ChartKind, readonly string[] | null> = {
  choice_counts: ['select_one', 'select_multiple'],
  histogram: ['integer', 'decimal'],
  over_time: null,
  map: ['geopoint'],
  status: null,
};

type Row = Record<string, unknown>;

/** The axis of a count: whole-number ticks only (never 0.5 submissions). */
const COUNT_AXIS = { tickMinStep: 1, format: 'd' };

/** How a chart names things when asked for a language, and what its counts count. */
export interface ChartWording {
  /** The field's label in the requested language (the axis title; default: the field name). */
  fieldTitle?: string;
  /** Whether choice_counts rows carry a `label` to show instead of the choice value. */
  labelled?: boolean;
  /** What a count counts: `answers` for a field inside a repeat (default `submissions`). */
  counted?: 'submissions' | 'answers';
}

/**
 * The Vega-Lite specification of a chart over its aggregated `data` rows, naming things as the
 * API does (choice values, field names; the console relabels them for its reader: docs/console.md,
 * "Analyses") unless `wording` gives a language's labels; counts on whole-number ticks.
 */
export function vegaLiteSpec(
  chart: ChartDef,
  data: Row[],
  wording: ChartWording = {},
): Record<string, unknown> {
  const counted = wording.counted ?? 'submissions';
  const fieldTitle = wording.fieldTitle ?? chart.field;
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: chart.title,
    width: 400,
    height: 240,
    data: { values: data },
  };
  const color = chart.split_by ? { color: { field: 'split', type: 'nominal', title: chart.split_by } } : {};
  switch (chart.kind) {
    case 'choice_counts':
      return {
        ...base,
        mark: 'bar',
        encoding: {
          x: { field: wording.labelled ? 'label' : 'value', type: 'nominal', title: fieldTitle },
          y: { field: 'count', type: 'quantitative', title: counted, axis: COUNT_AXIS },
          ...color,
        },
      };
    case 'histogram':
      return {
        ...base,
        mark: 'bar',
        encoding: {
          x: { field: 'from', type: 'quantitative', bin: { binned: true }, title: fieldTitle },
          x2: { field: 'to' },
          y: { field: 'count', type: 'quantitative', title: counted, axis: COUNT_AXIS },
        },
      };
    case 'over_time':
      return {
        ...base,
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'day', type: 'temporal', title: 'day (UTC)' },
          y: { field: 'count', type: 'quantitative', title: 'submissions', axis: COUNT_AXIS },
          ...color,
        },
      };
    case 'map':
      return {
        ...base,
        mark: 'circle',
        encoding: {
          longitude: { field: 'longitude', type: 'quantitative' },
          latitude: { field: 'latitude', type: 'quantitative' },
        },
      };
    case 'status':
      return {
        ...base,
        mark: 'arc',
        encoding: {
          theta: { field: 'count', type: 'quantitative' },
          color: { field: 'status', type: 'nominal' },
        },
      };
  }
}
