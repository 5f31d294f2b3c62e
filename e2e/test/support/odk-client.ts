/**
 * ODK's own form engine, `@getodk/xforms-engine` (the engine of ODK Web Forms, npm), loaded in Node
 * for tests that fill a Fieldhouse XForm as an ODK client would (issue 35, "A real client no one
 * here wrote"). The engine is written for browsers: as its own test suite does under vitest's
 * `jsdom` environment, the globals of a jsdom window (DOMParser, XMLSerializer, Node, document...)
 * are installed on `globalThis` before it is imported, and its bundled tree-sitter (Emscripten)
 * XPath parser finds its directory through a global `__dirname` under Node.
 *
 * Usage:
 * ```ts
 * const odk = await loadOdkEngine();
 * const form = await odk.createForm(xformXml);
 * odk.answer(form, '/data/age', '34');
 * const xml = await odk.instanceXml(form);
 * ```
 * Nodes are found by their XForm path with repeat positions as the engine names them
 * (`/data/member[2]/age`); see {@link OdkClient.find}.
 */
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { JSDOM } from 'jsdom';
import type { AnyNode, RootNode } from '@getodk/xforms-engine';

type Engine = typeof import('@getodk/xforms-engine'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- the module as imported lazily, after the jsdom globals
let loaded: Promise<Engine> | undefined;

/** Installs the jsdom globals once, then imports the engine (once per process). */
function engine(): Promise<Engine> {
  loaded ??= (async () => {
    const dom = new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>', {
      url: 'http://localhost/',
    });
    const globals = globalThis as unknown as Record<string, unknown>;
    const window = dom.window as unknown as Record<string, unknown>;
    // What vitest's jsdom environment does: every window property Node lacks becomes a global.
    for (const key of Object.getOwnPropertyNames(window)) {
      if (key in globals || key.startsWith('_')) continue;
      try {
        globals[key] = window[key];
      } catch {
        // a getter that cannot be read outside the window: not needed by the engine
      }
    }
    globals.window ??= dom.window;
    globals.document ??= dom.window.document;
    const entry = createRequire(import.meta.url).resolve('@getodk/xforms-engine');
    globals.__dirname ??= dirname(entry);
    return import('@getodk/xforms-engine');
  })();
  return loaded;
}

/** One filled form: the engine's root node. */
export type OdkForm = RootNode;

export interface OdkClient {
  /** Loads an XForm (its XML text) and creates a new instance of it, as a client opening a blank form. */
  createForm(xform: string): Promise<OdkForm>;
  /**
   * The node at `reference`, the engine's `currentState.reference`: `/data/age`,
   * `/data/member[2]/age` (1-based repeat positions), or undefined when the form has none.
   */
  find(form: OdkForm, reference: string): AnyNode | undefined;
  /**
   * Answers the input, select or upload at `reference`: a select's value or space-separated
   * values, an input's value as the engine takes it (text, or a number for int/decimal), a File
   * for an upload (image).
   */
  answer(form: OdkForm, reference: string, value: string | number | File): void;
  /** Adds a repeat instance to the repeat at `reference` (`/data/member`). */
  addRepeat(form: OdkForm, reference: string): void;
  /** Switches the form's active language (the engine's language of `lang`, an itext language name). */
  setLanguage(form: OdkForm, language: string): void;
  /** The instance XML the client would submit (`prepareInstancePayload`'s `xml_submission_file`). */
  instanceXml(form: OdkForm): Promise<string>;
}

function walk(node: AnyNode, out: AnyNode[]): AnyNode[] {
  out.push(node);
  const children = (node.currentState as { children?: readonly AnyNode[] | null }).children;
  if (children) for (const child of children) walk(child, out);
  return out;
}

/** ODK's engine as a client under jsdom. */
export async function loadOdkEngine(): Promise<OdkClient> {
  const odk = await engine();
  const find = (form: OdkForm, reference: string) =>
    walk(form as unknown as AnyNode, []).find((n) => n.currentState.reference === reference);
  const must = (form: OdkForm, reference: string) => {
    const node = find(form, reference);
    if (!node) throw new Error(`the form has no node ${reference}`);
    return node;
  };
  return {
    async createForm(xform) {
      const instance = await odk.createInstance(xform);
      return instance.root;
    },
    find,
    answer(form, reference, value) {
      const node = must(form, reference) as AnyNode & {
        setValue?: (v: unknown) => unknown;
        selectValue?: (v: string | null) => unknown;
        selectValues?: (v: readonly string[]) => unknown;
      };
      if (node.nodeType === 'select') {
        const values = String(value).split(' ').filter(Boolean);
        if (node.selectValues && (node as { selectType?: string }).selectType !== 'select1')
          node.selectValues(values);
        else node.selectValue!(values[0] ?? null);
        return;
      }
      if (!node.setValue) throw new Error(`${reference} is a ${node.nodeType}, not an input`);
      node.setValue(value);
    },
    addRepeat(form, reference) {
      const node = must(form, reference) as AnyNode & { addInstances?: () => unknown };
      if (!node.addInstances) throw new Error(`${reference} is a ${node.nodeType}, not a repeat`);
      node.addInstances();
    },
    setLanguage(form, language) {
      const lang = form.languages.find((l) => l.language === language);
      if (!lang || lang.isSyntheticDefault) throw new Error(`the form has no language ${language}`);
      form.setLanguage(lang);
    },
    async instanceXml(form) {
      const payload = await form.prepareInstancePayload();
      const file = payload.data[0].get('xml_submission_file');
      if (!(file instanceof Blob)) throw new Error('the payload has no xml_submission_file');
      return await file.text();
    },
  };
}
