/**
 * The answers a submission keeps: those of relevant questions, as ODK clients send (Enketo and
 * Collect leave non-relevant answers out, and validate() refuses them).
 */
import { levelKey, type FormModel } from './form-meta.ts';
import { copyAnswers, scopesByLevel, scopeTree, type Runner, type Scope } from './form-runtime.ts';
import type { FormAnswers } from './form-types.ts';

/**
 * A copy of `answers` without the answers of questions that are not relevant (nor the instances of
 * a repeat that is not relevant), calculations recomputed (and left out when not relevant).
 */
export function relevantAnswers(
  model: FormModel,
  runner: Runner,
  answers: FormAnswers,
  now: number,
): FormAnswers {
  const top = scopeTree(model, copyAnswers(model, answers));
  runner.run(model.tasks, scopesByLevel(top, model), now);
  const keep = (scope: Scope): FormAnswers => {
    const out: FormAnswers = {};
    for (const meta of model.levelMetas.get(levelKey(scope.repeat))!) {
      if (!scope.relevant[meta.id] || !(meta.name in scope.values)) continue;
      if (meta.type === 'repeat') out[meta.name] = scope.instances.get(meta.id)!.map(keep);
      else if (meta.answered || meta.type === 'calculate') out[meta.name] = scope.values[meta.name];
    }
    return out;
  };
  return keep(top);
}
