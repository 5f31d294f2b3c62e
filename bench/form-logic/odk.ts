/**
 * ODK's own evaluator for comparison: @getodk/xpath 0.11.0 under jsdom. Its npm package names a
 * dependency that is not published (@getodk/common, bundled into its dist), so npm cannot install
 * it: the bench unpacks `npm pack @getodk/xpath@0.11.0` into bench/form-logic/.odk/ (git-ignored)
 * on first use; its one runtime dependency, temporal-polyfill, and jsdom are devDependencies of
 * @fieldhouse/form-logic.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JSDOM } from 'jsdom';

const ODK_VERSION = '0.11.0';
const odkDir = fileURLToPath(new URL('./.odk/', import.meta.url));
export const odkEntry = `${odkDir}package/dist/index.js`;

/** Unpacks the ODK package once (npm pack, then tar). */
export function ensureOdkPackage(): void {
  if (existsSync(odkEntry)) return;
  mkdirSync(odkDir, { recursive: true });
  execFileSync('npm', ['pack', `@getodk/xpath@${ODK_VERSION}`, '--pack-destination', odkDir], {
    stdio: 'ignore',
  });
  const tarball = readdirSync(odkDir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack gave no tarball');
  execFileSync('tar', ['xzf', `${odkDir}${tarball}`, '-C', odkDir]);
}

export interface OdkEvaluator {
  evaluateString(expression: string, options: { contextNode: unknown }): string;
}

export interface OdkSession {
  evaluator: OdkEvaluator;
  document: Document;
  clearCache(): void;
}

/** Loads @getodk/xpath under jsdom with `xml` as the primary instance. */
export async function startOdk(xml: string): Promise<OdkSession> {
  ensureOdkPackage();
  const dom = new JSDOM('');
  const globals = globalThis as Record<string, unknown>;
  const window = dom.window as unknown as Record<string, unknown>;
  for (const name of [
    'Node',
    'XPathResult',
    'DOMParser',
    'Element',
    'Document',
    'Attr',
    'Text',
    'XMLDocument',
  ]) {
    globals[name] ??= window[name];
  }
  globals.window ??= dom.window;
  globals.document ??= dom.window.document;
  // The bundled tree-sitter (Emscripten) looks for its directory in __dirname under Node.
  globals.__dirname ??= `${odkDir}package/dist/`;
  const odk = (await import(odkEntry)) as {
    XFormsXPathEvaluator: new (options: Record<string, unknown>) => OdkEvaluator;
    DEFAULT_DOM_ADAPTER: unknown;
    clearCache(): void;
  };
  const document = new dom.window.DOMParser().parseFromString(xml, 'text/xml');
  const evaluator = new odk.XFormsXPathEvaluator({
    rootNode: document,
    domAdapter: odk.DEFAULT_DOM_ADAPTER,
    itextTranslationsByLanguage: new Map(),
    secondaryInstancesById: new Map(),
  });
  return { evaluator, document: document as unknown as Document, clearCache: odk.clearCache };
}
