/**
 * validate(): a submission's entries checked against the form's logic ("Rules enforced" of the
 * form model, /work/form-model.md and docs/collection.md), calculations recomputed.
 */
import { levelKey, type FormModel, type Meta } from './form-meta.ts';
import { MESSAGES, textIn } from './form-messages.ts';
import { isEmptyAnswer, isRecord, Scope, scopesByLevel, type Runner } from './form-runtime.ts';
import type { FormAnswers, FormEntry, ValidateOptions, ValidateResult } from './form-types.ts';

/** Where each scope's entries are: its error key prefix and the entry index of each node. */
interface Level {
  key: string;
  entries: readonly unknown[];
  at: Map<number, number>;
  /** Nodes whose entry was refused (their other rules are not checked). */
  refused: Set<number>;
}

/**
 * Checks `entries` (form-model.md's submission data) and returns them with calculations
 * recomputed, and the errors by key. Structure: an entry must name a field of its level (a field
 * inside a repeat belongs in that repeat's instances), with the field's `type`, once; a repeat's
 * value is null or an array of instances (arrays of entries). Logic, in every scope: an answer
 * to a question that is not relevant; a failed constraint (the form's `constraint_message` in
 * `language`, else the default language's, else "Value not allowed"); a select answer outside the
 * choices its `choice_filter` leaves; a repeat count out of its bounds (or any instance of a
 * repeat that is not relevant); and, unless `draft`, a required answer missing where relevant
 * (`required_message`, else "This answer is required"). A value's format (types, choices of
 * unfiltered selects, min/max...) is the caller's to check.
 */
export function validateEntries(
  model: FormModel,
  runner: Runner,
  entries: readonly FormEntry[],
  options: ValidateOptions,
): ValidateResult {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string): void => {
    (errors[key] ??= []).push(message);
  };
  const prefix = options.prefix ?? 'data';
  const levels = new Map<Scope, Level>();
  const size = model.metas.length;

  const build = (
    raw: readonly unknown[],
    parent: Scope | null,
    repeat: Meta | null,
    index: number,
    key: string,
  ): Scope => {
    const values: FormAnswers = {};
    const scope = new Scope(values, parent, repeat, index, size);
    const level: Level = { key, entries: raw, at: new Map(), refused: new Set() };
    levels.set(scope, level);
    for (let i = 0; i < raw.length; i++) {
      const e = raw[i];
      const at = `${key}.${i}`;
      if (!isRecord(e) || typeof e.field_uuid !== 'string') {
        add(at, 'each entry must be an object with field_uuid, type and value');
        continue;
      }
      const meta = model.byUuid.get(e.field_uuid);
      if (!meta) {
        add(`${at}.field_uuid`, `no field of this form version has uuid ${e.field_uuid}`);
        continue;
      }
      if (meta.type === 'group' || meta.type === 'note') {
        add(`${at}.field_uuid`, `${meta.name} is a ${meta.type}, which has no entry`);
        continue;
      }
      if (meta.level !== repeat) {
        add(
          `${at}.field_uuid`,
          meta.level
            ? `${meta.name} belongs in the instances of repeat ${meta.level.name}`
            : `${meta.name} belongs at the top level, not in a repeat instance`,
        );
        continue;
      }
      if (e.type !== meta.type) {
        add(`${at}.type`, `field ${meta.name} is of type ${meta.type}, not ${String(e.type)}`);
        level.refused.add(meta.id);
        continue;
      }
      const first = level.at.get(meta.id);
      if (first !== undefined) {
        add(at, `a second entry for field ${meta.name} (first at ${key}.${first})`);
        continue;
      }
      level.at.set(meta.id, i);
      if (meta.type !== 'repeat') {
        values[meta.name] = e.value ?? null;
        continue;
      }
      const list = e.value ?? [];
      if (!Array.isArray(list) || list.some((instance) => !Array.isArray(instance))) {
        add(
          `${at}.value`,
          `${meta.name} is a repeat: its value is an array of instances, each an array of entries`,
        );
        level.at.delete(meta.id);
        level.refused.add(meta.id);
        continue;
      }
      const instances = (list as unknown[][]).map((instance, n) =>
        build(instance, scope, meta, n, `${at}.value.${n}`),
      );
      scope.instances.set(meta.id, instances);
      values[meta.name] = instances.map((s) => s.values);
    }
    for (const meta of model.levelMetas.get(levelKey(repeat))!)
      if (meta.type === 'repeat' && !scope.instances.has(meta.id)) scope.instances.set(meta.id, []);
    return scope;
  };

  const top = build(Array.isArray(entries) ? entries : [], null, null, 0, prefix);
  if (!Array.isArray(entries)) add(prefix, 'data must be an array of entries');
  runner.run(model.tasks, scopesByLevel(top, model), options.now ?? Date.now());

  const language = options.language ?? null;
  const check = (scope: Scope): void => {
    const level = levels.get(scope)!;
    for (const meta of model.levelMetas.get(levelKey(scope.repeat))!) {
      const id = meta.id;
      if (level.refused.has(id)) continue;
      const i = level.at.get(id);
      const valueKey = `${level.key}.${i}.value`;
      const value = scope.values[meta.name];
      const relevant = scope.relevant[id] === 1;
      if (meta.type === 'repeat') {
        const given = scope.instances.get(id)!.length;
        if (!relevant) {
          if (given > 0) add(valueKey, MESSAGES.notRelevant);
          continue;
        }
        const b = scope.bounds.get(id)!;
        const key = i === undefined ? `${level.key}.${meta.name}` : valueKey;
        if (b.count !== null && given !== b.count && !(options.draft && given < b.count))
          add(key, MESSAGES.repeatCount(b.count, given));
        else if (b.count === null && given < b.min && !options.draft)
          add(key, MESSAGES.repeatMin(b.min, given));
        else if (b.count === null && given > b.max) add(key, MESSAGES.repeatMax(b.max, given));
        for (const instance of scope.instances.get(id)!) check(instance);
        continue;
      }
      if (!meta.answered) continue;
      const empty = isEmptyAnswer(value);
      if (!relevant) {
        if (!empty) add(valueKey, MESSAGES.notRelevant);
        continue;
      }
      if (empty) {
        if (scope.required[id] && !options.draft)
          add(
            i === undefined ? `${level.key}.${meta.name}` : valueKey,
            textIn(meta.node, 'required_message', language) ?? MESSAGES.required,
          );
        continue;
      }
      if (meta.constraint && !scope.valid[id])
        add(valueKey, textIn(meta.node, 'constraint_message', language) ?? MESSAGES.constraint);
      if (meta.choiceFilter) {
        const allowed = new Set(scope.choices.get(id)!.map((c) => c.value));
        const chosen = Array.isArray(value) ? value : [value];
        if (chosen.some((v) => !allowed.has(String(v)))) add(valueKey, MESSAGES.choice);
      }
    }
  };
  check(top);

  return { entries: rebuild(model, top, levels), errors };
}

/** The entries of a scope with calculations recomputed: replaced in place, added if missing, dropped if not relevant. */
function rebuild(model: FormModel, scope: Scope, levels: ReadonlyMap<Scope, Level>): FormEntry[] {
  const level = levels.get(scope)!;
  const out: FormEntry[] = [];
  const byIndex = new Map<number, Meta>();
  for (const [id, i] of level.at) byIndex.set(i, model.metas[id]!);
  for (let i = 0; i < level.entries.length; i++) {
    const meta = byIndex.get(i);
    if (!meta) continue;
    const e = level.entries[i] as FormEntry;
    if (meta.type === 'calculate') {
      if (scope.relevant[meta.id])
        out.push({ field_uuid: e.field_uuid, type: 'calculate', value: scope.values[meta.name] });
    } else if (meta.type === 'repeat') {
      out.push({
        field_uuid: e.field_uuid,
        type: 'repeat',
        value: scope.instances.get(meta.id)!.map((instance) => rebuild(model, instance, levels)),
      });
    } else out.push(e);
  }
  for (const meta of model.levelMetas.get(levelKey(scope.repeat))!)
    if (meta.type === 'calculate' && scope.relevant[meta.id] && !level.at.has(meta.id))
      out.push({ field_uuid: meta.node.uuid, type: 'calculate', value: scope.values[meta.name] });
  return out;
}
