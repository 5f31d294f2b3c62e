/**
 * The compiled form object: evaluate(), validate(), session() and the converters between
 * submission entries and the answers tree.
 */
import { levelKey, TOP, type FormModel, type Meta } from './form-meta.ts';
import { copyAnswers, isRecord, readersOf, Runner, scopesByLevel, scopeTree } from './form-runtime.ts';
import { relevantAnswers } from './form-prune.ts';
import { openSession } from './form-session.ts';
import type { CompiledForm, FormAnswers, FormDefinition, FormEntry, FormNode } from './form-types.ts';
import { stateOf } from './form-state.ts';
import { validateEntries } from './form-validate.ts';

/** Wraps a compiled model (compileForm) as the CompiledForm API. */
export function makeCompiledForm(definition: FormDefinition, model: FormModel): CompiledForm {
  const runner = new Runner(model, readersOf(model));
  const byName = new Map<string, FormNode>([...model.byName].map(([k, m]) => [k, m.node]));
  const byUuid = new Map<string, FormNode>([...model.byUuid].map(([k, m]) => [k, m.node]));
  const calculationOrder = model.tasks.filter((t) => t.property === 'calculation').map((t) => t.meta.name);
  const form: CompiledForm = {
    definition,
    byName,
    byUuid,
    calculationOrder,
    evaluate(answers, options = {}) {
      const top = scopeTree(model, copyAnswers(model, answers));
      runner.run(model.tasks, scopesByLevel(top, model), options.now ?? Date.now());
      return stateOf(model, top);
    },
    validate: (entries, options = {}) => validateEntries(model, runner, entries, options),
    session: (answers = {}, options = {}) => openSession(model, runner, answers, options.now),
    answersFromEntries: (entries) => answersFromEntries(model, entries, null),
    entriesFromAnswers: (answers) => entriesFromAnswers(model, answers, null),
    initialAnswers: () => initialAnswers(model, null),
    relevantAnswers: (answers, options = {}) =>
      relevantAnswers(model, runner, answers, options.now ?? Date.now()),
  };
  return form;
}

/** Entries of one level → its answers (repeats recursively); unknown or misplaced entries are left out. */
function answersFromEntries(
  model: FormModel,
  entries: readonly FormEntry[],
  level: Meta | null,
): FormAnswers {
  const out: FormAnswers = {};
  if (!Array.isArray(entries)) return out;
  for (const e of entries as readonly unknown[]) {
    if (!isRecord(e) || typeof e.field_uuid !== 'string') continue;
    const meta = model.byUuid.get(e.field_uuid);
    if (!meta || meta.level !== level || meta.type === 'group' || meta.type === 'note') continue;
    out[meta.name] =
      meta.type === 'repeat'
        ? (Array.isArray(e.value) ? (e.value as unknown[]) : []).map((i) =>
            answersFromEntries(model, Array.isArray(i) ? (i as FormEntry[]) : [], meta),
          )
        : (e.value ?? null);
  }
  return out;
}

/** Answers of one level → entries in form order (absent answers have no entry). */
function entriesFromAnswers(model: FormModel, answers: FormAnswers, level: Meta | null): FormEntry[] {
  const out: FormEntry[] = [];
  for (const meta of model.levelMetas.get(levelKey(level))!) {
    if (meta.type === 'group' || meta.type === 'note' || !(meta.name in answers)) continue;
    const value = answers[meta.name];
    out.push({
      field_uuid: meta.node.uuid,
      type: meta.type,
      value:
        meta.type === 'repeat'
          ? (Array.isArray(value) ? value : []).map((i) =>
              entriesFromAnswers(model, isRecord(i) ? i : {}, meta),
            )
          : (value ?? null),
    });
  }
  return out;
}

/** Defaults pre-filled; repeats with their fixed repeat_count or min_repeats instances. */
function initialAnswers(model: FormModel, level: Meta | null): FormAnswers {
  const out: FormAnswers = {};
  for (const meta of model.levelMetas.get(level ? level.id : TOP)!) {
    const n = meta.node;
    if (meta.type === 'repeat') {
      const count =
        typeof meta.repeatCount === 'number' ? meta.repeatCount : meta.repeatCount ? 0 : (n.min_repeats ?? 0);
      out[meta.name] = Array.from({ length: count }, () => initialAnswers(model, meta));
    } else if (meta.answered && n.default !== undefined && n.default !== null && n.default !== '') {
      out[meta.name] = n.default;
    }
  }
  return out;
}
