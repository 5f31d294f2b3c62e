import type { FieldType } from './types.ts';
export {
  FIELD_TYPES,
  LOGIC_KEYS,
  VALUE_TYPES,
  type FieldType,
  type ValueType,
  type Choice,
  type Constraints,
  type FieldDef,
  type FieldLogic,
  type Translations,
} from './types.ts';

export const SELECT_TYPES: readonly FieldType[] = ['select_one', 'select_multiple'];
export const NUMBER_TYPES: readonly FieldType[] = ['integer', 'decimal'];
/** Types with members (form model of issue 34): a field's `parent` names one of these. */
export const CONTAINER_TYPES: readonly FieldType[] = ['group', 'repeat'];

/** Compiles a text field's pattern to a whole-value matcher (`^(?:pattern)$`, Unicode mode). */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}
