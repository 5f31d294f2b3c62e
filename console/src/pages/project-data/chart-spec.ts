import type { TFunction } from 'i18next';
import type { ChartView, Field } from '../collection/types.ts';

type Row = Record<string, unknown>;
type Spec = Record<string, unknown>;
type Encoding = Record<string, Record<string, unknown>>;

/** A column of a chart's table: the row key, its header, and how a value is shown. */
export interface ChartColumn {
  key: string;
  title: string;
  /** `count` integers, `share` a fraction shown as a percentage, `text` as is. */
  format: 'count' | 'share' | 'text';
}

/** A chart as the reader sees it: the Vega-Lite specification and its rows as a table. */
export interface ReadableChart {
  spec: Spec;
  rows: Row[];
  columns: ChartColumn[];
}

/** A count axis: whole numbers only (no 0.2, 0.4 ticks for a handful of submissions). */
const COUNT_AXIS = { tickMinStep: 1, format: 'd' };

/** A choice's label in `field`, or the value itself when the current form no longer has it. */
const choiceLabel = (field: Field | undefined, value: unknown): string => {
  if (value === null || value === undefined) return '';
  return field?.choices?.find((c) => c.value === value)?.label ?? String(value);
};

/** Rows with `share`: each row's count over the chart's total (0 when there is none). */
const withShares = (rows: Row[]): Row[] => {
  const total = rows.reduce((sum, r) => sum + Number(r.count ?? 0), 0);
  return rows.map((r) => ({ ...r, share: total ? Number(r.count ?? 0) / total : 0 }));
};

/**
 * The service's chart made readable in the reader's language (docs/console.md, "Analyses"):
 * the Vega-Lite specification the service sends (`vega_lite`, its mark and encodings kept) with
 * its rows labelled (choices and statuses by their labels, from the current form version's
 * `fields`; a value the form no longer has stays as it is), axis and legend titles from the
 * fields' labels and this console's strings, whole-number ticks on counts, and each row's share
 * of the total in the tooltip and the table. The chart's title stays outside the drawing (the
 * page shows it as a heading). The API's answer is unchanged: other clients get the service's
 * specification as it is.
 */
export function readableChart(view: ChartView, fields: readonly Field[], t: TFunction): ReadableChart {
  const { chart } = view;
  const field = fields.find((f) => f.name === chart.field);
  const split = fields.find((f) => f.name === chart.split_by);
  const fieldTitle = field?.label ?? chart.field ?? '';
  const splitTitle = split?.label ?? chart.split_by ?? '';
  const { title: _title, ...base } = view.vega_lite;
  const encoding = { ...((base.encoding as Encoding | undefined) ?? {}) };
  const countCol: ChartColumn = {
    key: 'count',
    title: t('projectViews:charts.submissions'),
    format: 'count',
  };
  const shareCol: ChartColumn = { key: 'share', title: t('projectViews:charts.share'), format: 'share' };
  const tooltipOf = (columns: ChartColumn[]) =>
    columns.map((c) => ({
      field: c.key,
      title: c.title,
      ...(c.format === 'count' ? { format: 'd' } : c.format === 'share' ? { format: '.0%' } : {}),
    }));
  const splitCol: ChartColumn[] = chart.split_by
    ? [{ key: 'split_label', title: splitTitle, format: 'text' }]
    : [];
  const splitColor = chart.split_by
    ? { color: { field: 'split_label', type: 'nominal', title: splitTitle } }
    : {};
  let rows: Row[] = view.data;
  let columns: ChartColumn[];
  switch (chart.kind) {
    case 'choice_counts': {
      rows = withShares(
        view.data.map((r) => ({
          ...r,
          label: choiceLabel(field, r.value),
          ...(chart.split_by ? { split_label: choiceLabel(split, r.split) } : {}),
        })),
      );
      columns = [{ key: 'label', title: fieldTitle, format: 'text' }, ...splitCol, countCol, shareCol];
      // The form's order of the choices, then any value it no longer has.
      const order = [
        ...(field?.choices ?? []).map((c) => c.label),
        ...rows.map((r) => String(r.label)).filter((l) => !field?.choices?.some((c) => c.label === l)),
      ];
      const rank = (r: Row) => order.indexOf(String(r.label));
      rows.sort((a, b) => rank(a) - rank(b));
      Object.assign(encoding, {
        x: {
          field: 'label',
          type: 'nominal',
          title: fieldTitle,
          sort: order,
          // Level labels when a few choices fit; slanted (not upright) when there are more.
          axis: { labelLimit: 160, labelAngle: order.length <= 4 ? 0 : -40 },
        },
        y: { field: 'count', type: 'quantitative', title: countCol.title, axis: COUNT_AXIS },
        ...splitColor,
        tooltip: tooltipOf(columns),
      });
      break;
    }
    case 'histogram':
      rows = withShares(view.data);
      columns = [
        { key: 'from', title: t('projectViews:charts.from'), format: 'text' },
        { key: 'to', title: t('projectViews:charts.to'), format: 'text' },
        countCol,
        shareCol,
      ];
      Object.assign(encoding, {
        x: { ...encoding.x, title: fieldTitle },
        y: { field: 'count', type: 'quantitative', title: countCol.title, axis: COUNT_AXIS },
        tooltip: tooltipOf(columns),
      });
      break;
    case 'over_time':
      rows = view.data.map((r) => ({
        ...r,
        ...(chart.split_by ? { split_label: choiceLabel(split, r.split) } : {}),
      }));
      columns = [{ key: 'day', title: t('projectViews:charts.day'), format: 'text' }, ...splitCol, countCol];
      Object.assign(encoding, {
        // One tick a day at most, named by its date (never "12 PM" between two days).
        x: {
          ...encoding.x,
          title: t('projectViews:charts.day'),
          axis: { tickCount: { interval: 'day', step: 1 }, format: '%e %b' },
        },
        y: { field: 'count', type: 'quantitative', title: countCol.title, axis: COUNT_AXIS },
        ...splitColor,
        tooltip: [
          { field: 'day', type: 'temporal', title: t('projectViews:charts.day'), format: '%x' },
          ...tooltipOf(columns.slice(1)),
        ],
      });
      break;
    case 'status':
      rows = withShares(view.data.map((r) => ({ ...r, label: t(`collection:status.${String(r.status)}`) })));
      columns = [
        { key: 'label', title: t('projectViews:charts.status'), format: 'text' },
        countCol,
        shareCol,
      ];
      Object.assign(encoding, {
        color: { field: 'label', type: 'nominal', title: t('projectViews:charts.status') },
        tooltip: tooltipOf(columns),
      });
      break;
    case 'map':
      columns = [
        { key: 'id', title: t('projectViews:charts.submission'), format: 'text' },
        { key: 'latitude', title: t('projectViews:charts.latitude'), format: 'text' },
        { key: 'longitude', title: t('projectViews:charts.longitude'), format: 'text' },
      ];
      Object.assign(encoding, { tooltip: tooltipOf(columns) });
      break;
  }
  return {
    spec: { ...base, data: { values: rows }, encoding, background: 'transparent' },
    rows,
    columns,
  };
}
