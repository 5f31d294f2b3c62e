import type { Field } from '../collection/types.ts';

const LOGIC: readonly (keyof Field)[] = [
  'parent',
  'relevant',
  'constraint',
  'required_if',
  'calculation',
  'choice_filter',
  'read_only',
  'default',
  'hint',
];

/**
 * Whether a version needs the form engine (@fieldhouse/form-logic, loaded with import() only
 * then, so the web form's initial JavaScript stays within its budget): a group, repeat, note or
 * calculate field, a field inside one, a logic property, a hint, a default or several languages.
 */
export function needsLogic(
  fields: readonly Field[],
  languages: readonly string[] | null | undefined,
): boolean {
  if ((languages?.length ?? 0) > 1) return true;
  return fields.some(
    (f) =>
      f.type === 'group' ||
      f.type === 'repeat' ||
      f.type === 'note' ||
      f.type === 'calculate' ||
      LOGIC.some((key) => {
        const v = f[key] as unknown;
        return v !== undefined && v !== null && v !== false && v !== '';
      }),
  );
}
