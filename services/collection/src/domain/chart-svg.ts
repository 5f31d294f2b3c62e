import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Renders a Vega-Lite specification to SVG text on the server (vega, no browser, no canvas). */
export async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec as unknown as TopLevelSpec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
