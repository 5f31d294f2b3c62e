import { useEffect, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { expressionInterpreter } from 'vega-interpreter';
import { usePageScheme } from '../../components/use-page-scheme.ts';
import { chartLocale } from './chart-locales.ts';

/** Loads vega-embed and vega-interpreter (with the first chart). */
const loadVega = () => Promise.all([import('vega-embed'), import('vega-interpreter')]);

/**
 * The options every drawing takes: SVG, no action menu, the theme (vega-themes' `dark` in
 * Mantine's dark scheme), the number and date formats of `language`, and vega-interpreter,
 * which evaluates Vega's expressions without `eval` (the gateway's Content-Security-Policy
 * forbids it).
 */
const embedOptions = (expr: typeof expressionInterpreter, dark: boolean, language: string | undefined) => ({
  actions: false,
  renderer: 'svg' as const,
  ast: true,
  expr,
  ...(dark ? { theme: 'dark' as const } : {}),
  ...chartLocale(language),
});

/**
 * The chart as an SVG file's text, drawn in the light theme at 560 px wide (whatever the page's
 * scheme: a file is printed or pasted on white).
 */
export async function chartSvg(spec: Record<string, unknown>, language: string | undefined): Promise<string> {
  const [{ default: embed }, { expressionInterpreter: interpreter }] = await loadVega();
  const box = document.createElement('div');
  const result = await embed(
    box,
    { ...spec, width: 560, background: 'white' } as never,
    embedOptions(interpreter, false, language),
  );
  try {
    return await result.view.toSVG();
  } finally {
    result.finalize();
  }
}

/**
 * A chart drawn by vega-embed from a Vega-Lite specification (made readable by
 * `readableChart`), as SVG, in Mantine's color scheme and the console's language (their change
 * draws it again). vega-embed and vega-interpreter are loaded with the first chart. `title`
 * names the figure for screen readers (the data table is the alternative).
 */
export function VegaChart({ spec, title }: { spec: Record<string, unknown>; title: string }) {
  const { t, i18n } = useTranslation('projectData');
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const dark = usePageScheme() === 'dark';
  const language = i18n.resolvedLanguage;
  useEffect(() => {
    let finalize: (() => void) | undefined;
    let live = true;
    void (async () => {
      try {
        const [{ default: embed }, { expressionInterpreter: interpreter }] = await loadVega();
        if (!live || !box.current) return;
        const result = await embed(
          box.current,
          { ...spec, width: 'container' } as never,
          embedOptions(interpreter, dark, language),
        );
        finalize = () => result.finalize();
        if (!live) finalize();
        else box.current?.setAttribute('data-drawn', dark ? 'dark' : 'light');
      } catch {
        if (live) setFailed(true);
      }
    })();
    return () => {
      live = false;
      finalize?.();
    };
  }, [spec, dark, language]);
  return (
    // vega-embed sets its own role and label on the element it draws into: the figure names it.
    <figure style={{ margin: 0 }} role="img" aria-label={title}>
      <div ref={box} data-testid="vega-chart" style={{ width: '100%' }} />
      {failed ? <Text c="red.8">{t('analyses.chartFailed')}</Text> : null}
    </figure>
  );
}
