/**
 * What the web form needs for a version with logic, loaded with import() (CollectForm) so that
 * flat forms never download the engine: compiling the version, the renderer, the checks before
 * sending and the bookkeeping of typed drafts by session path.
 */
import { compileForm, formTree, type FlatField } from '@fieldhouse/form-logic';
import type { VersionWithFields } from '../collection/types.ts';
import { draftOf, LogicFields } from '../../components/form-logic/LogicFields.tsx';
import { textIn, valueAt } from '../../components/form-logic/logic-texts.ts';
import type {
  CompiledForm,
  FormAnswers,
  FormEntry,
  FormNode,
  FormSession,
} from '../../components/form-logic/logic-types.ts';
import type { Field } from '../collection/types.ts';
import { isEmpty, valueOf, type Answer, type Problem } from './answers.ts';

export { LogicFields };

/** The compiled form of a version, or null when it does not compile (the service would refuse it too). */
export function compileVersion(version: VersionWithFields): CompiledForm | null {
  const tree = formTree(version.fields as unknown as FlatField[]);
  if (!tree.ok) return null;
  const result = compileForm({
    languages: version.languages ?? [],
    default_language: version.default_language ?? null,
    nodes: tree.nodes,
  });
  return result.ok ? result.form : null;
}

/** The value the engine reads for what was typed: the entry's value, or null when empty or not valid for the type. */
export function typedValue(node: FormNode, draft: Answer): unknown {
  if (isEmpty(draft)) return null;
  const result = valueOf(asField(node), draft!);
  return 'value' in result ? result.value : null;
}

/**
 * Drafts after instance `index` of the repeat at `repeatPath` is removed: the later instances'
 * paths move down by one (`member.3.age` → `member.2.age`), the removed instance's are gone.
 */
export function shiftDrafts<T>(
  drafts: Record<string, T>,
  repeatPath: string,
  index: number,
): Record<string, T> {
  const head = `${repeatPath}.`;
  const out: Record<string, T> = {};
  for (const [path, value] of Object.entries(drafts)) {
    if (!path.startsWith(head)) {
      out[path] = value;
      continue;
    }
    const [n, ...rest] = path.slice(head.length).split('.');
    const i = Number(n);
    if (i === index) continue;
    out[i > index ? `${head}${i - 1}.${rest.join('.')}` : path] = value;
  }
  return out;
}

/**
 * Brings every relevant repeat with a `repeat_count` to the number of instances its count asks
 * for (instances added or removed at the end), as ODK does. Returns whether anything changed.
 */
export function syncRepeatCounts(form: CompiledForm, session: FormSession): boolean {
  // Most forms have no counted repeat: then nothing to do, and the session's whole state (every
  // node's, by path) is not built on every keystroke for it.
  if (!hasCountedRepeat(form)) return false;
  let changed = false;
  for (let pass = 0; pass < 5; pass++) {
    let again = false;
    for (const [path, state] of Object.entries(session.state.nodes)) {
      const r = state.repeat;
      if (!r || r.count === null || !state.relevant) continue;
      const want = Math.max(0, Math.min(r.count, 1000));
      if (r.instances < want) {
        for (let k = r.instances; k < want; k++) session.addInstance(path);
        again = true;
      } else if (r.instances > want) {
        for (let k = r.instances; k > want; k--) session.removeInstance(path, k - 1);
        again = true;
      }
    }
    if (!again) break;
    changed = true;
  }
  return changed;
}

const counted = new WeakMap<CompiledForm, boolean>();

/** Whether a repeat of the form has a `repeat_count` (remembered per compiled form). */
function hasCountedRepeat(form: CompiledForm): boolean {
  let known = counted.get(form);
  if (known === undefined) {
    const any = (nodes: readonly FormNode[]): boolean =>
      nodes.some(
        (n) =>
          (n.type === 'repeat' &&
            n.repeat_count !== null &&
            n.repeat_count !== undefined &&
            n.repeat_count !== '') ||
          any(n.children ?? []),
      );
    known = any(form.definition.nodes);
    counted.set(form, known);
  }
  return known;
}

/** The result of checking a form with logic before it is sent. */
interface LogicCheck {
  /** The submission's entries (nested for repeats; answers to questions not relevant left out). */
  entries: FormEntry[];
  /** Messages by session path: required answers missing, values the type refuses, constraints. */
  problems: Record<string, string>;
  /** Paths with a problem, in form order (the first gets the focus). */
  order: string[];
}

/**
 * Checks the answers as the service will (docs/collection.md): a relevant required question
 * without an answer (the form's `required_message` in `lang`, else `requiredText`), a value its
 * type or min/max/pattern refuses (`typeText` of the problem), a constraint that fails (the
 * form's `constraint_message`, else `notAllowed`); builds the entries from the session's answers
 * with only relevant questions, calculations included.
 */
export function checkLogic(
  form: CompiledForm,
  session: FormSession,
  drafts: Readonly<Record<string, Answer>>,
  lang: string | null,
  texts: { required: string; notAllowed: string; type: (p: Problem) => string },
): LogicCheck {
  const problems: Record<string, string> = {};
  const order: string[] = [];
  const state = session.state;
  const level = (
    nodes: readonly FormNode[],
    prefix: string,
    answers: FormAnswers | undefined,
  ): FormAnswers => {
    const out: FormAnswers = {};
    for (const node of nodes) {
      const path = prefix + node.name;
      const s = state.nodes[path];
      if (s && !s.relevant) continue;
      if (node.type === 'group') {
        Object.assign(out, level(node.children ?? [], prefix, answers));
      } else if (node.type === 'repeat') {
        const list = valueAt(session.answers, path);
        out[node.name] = (Array.isArray(list) ? list : []).map((_, i) =>
          level(node.children ?? [], `${path}.${i}.`, undefined),
        );
      } else if (node.type === 'calculate') {
        out[node.name] = state.values[path] ?? '';
      } else if (node.type !== 'note') {
        const draft = path in drafts ? drafts[path]! : draftOf(valueAt(session.answers, path));
        const problem = (message: string) => {
          problems[path] = message;
          order.push(path);
        };
        if (isEmpty(draft)) {
          if (s?.required) problem(textIn(node, 'required_message', lang) || texts.required);
          continue;
        }
        const result = valueOf(asField(node), draft!);
        if ('problem' in result) problem(texts.type(result.problem));
        else if (s && !s.valid) problem(textIn(node, 'constraint_message', lang) || texts.notAllowed);
        else out[node.name] = result.value;
      }
    }
    return out;
  };
  const answers = level(form.definition.nodes, '', undefined);
  return { entries: form.entriesFromAnswers(answers), problems, order };
}

const asField = (node: FormNode): Field =>
  ({
    ...(node as unknown as Field),
    constraints: (node as unknown as Partial<Field>).constraints ?? {},
  }) as Field;
