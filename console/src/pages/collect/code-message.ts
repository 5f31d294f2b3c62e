import i18n from 'i18next';
import { PROBLEMS_NS } from '../../api/problem-message.ts';

/**
 * The message of a problem `code` met outside an `ApiError` (a `/sync` item's result), or `fallback` (the service's sentence) when the console has none for it.
 */
export function codeMessage(code: string | null | undefined, fallback: string): string {
  return code && i18n.exists(`${PROBLEMS_NS}:${code}`) ? i18n.t(`${PROBLEMS_NS}:${code}`) : fallback;
}
