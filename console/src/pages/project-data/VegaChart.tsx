import { useEffect, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A chart drawn by vega-embed from the service's Vega-Lite specification (not redrawn here),
 * as SVG. vega-embed and vega-interpreter are loaded with the first chart. The interpreter
 * evaluates Vega's expressions without `eval`, which the gateway's Content-Security-Policy
 * forbids. `title` names the figure for screen readers (the data table is the alternative).
 */
export function VegaChart({ spec, title }: { spec: Record<string, unknown>; title: string }) {
  const { t } = useTranslation('projectData');
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let finalize: (() => void) | undefined;
    let live = true;
    void (async () => {
      try {
        const [{ default: embed }, { expressionInterpreter }] = await Promise.all([
          import('vega-embed'),
          import('vega-interpreter'),
        ]);
        if (!live || !box.current) return;
        const result = await embed(box.current, { ...spec, width: 'container' } as never, {
          actions: false,
          renderer: 'svg',
          ast: true,
          expr: expressionInterpreter,
        });
        finalize = () => result.finalize();
        if (!live) finalize();
      } catch {
        if (live) setFailed(true);
      }
    })();
    return () => {
      live = false;
      finalize?.();
    };
  }, [spec]);
  return (
    // vega-embed sets its own role and label on the element it draws into: the figure names it.
    <figure style={{ margin: 0 }} role="img" aria-label={title}>
      <div ref={box} data-testid="vega-chart" style={{ width: '100%' }} />
      {failed ? <Text c="red.8">{t('analyses.chartFailed')}</Text> : null}
    </figure>
  );
}
