import type { TFunction } from 'i18next';
import { ApiError } from './problem.ts';
import i18n from 'i18next';

/**
 * The namespace of the messages per problem `code` (`locales/<lng>/problems.json`, a flat map
 * code → message with `{{param}}` from the problem's extension members). It is loaded on first
 * use, like every namespace, so the voting page does not download it up front.
 */
export const PROBLEMS_NS = 'problems';

/** The translator of the services' usual field sentences, once loaded (components/field-message.ts). */
export let translateField: ((message: string) => string) | undefined;

/**
 * Starts loading the problem messages and the field sentences' translator (lazy: not in the
 * voting page's initial JavaScript; the query client calls this when a mutation starts or a
 * query fails). Settles once both are there (or failed: then the service's words are shown).
 */
export const loadProblemMessages = () =>
  Promise.all([
    i18n.loadNamespaces(PROBLEMS_NS),
    import('../components/field-message.ts').then(
      (m) => (translateField = m.fieldMessage),
      () => undefined,
    ),
  ]);

/** The generic message's key (`common:errors.status.*`) for a status without a known code. */
const statusKey = (status: number) =>
  status
    ? /^(40[01349]|41[03]|422|429)$/.test(`${status}`)
      ? status
      : status > 499
        ? '5xx'
        : '4xx'
    : 'network';

/**
 * What to tell the user about a refused call, in their language (docs/console.md, "Errors"):
 * the message of the problem's `code` in the `problems` namespace (its `{{param}}` are the
 * problem's members: `limit`, `max_items`, `attempts_left`...), else a generic message for
 * its status (also while the namespace is still loading). Never the HTTP status nor the
 * service's English `detail`. An error that is not an `ApiError` is the console's own (its
 * message is already translated by whoever made it).
 */
export function problemMessage(err: unknown, t: TFunction = i18n.t): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const code = err.problem.code;
  if (code && i18n.exists(`${PROBLEMS_NS}:${code}`)) return t(`${PROBLEMS_NS}:${code}`, err.problem);
  return t(`common:errors.status.${statusKey(err.status)}`);
}
