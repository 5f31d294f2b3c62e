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

/** Compiles a text field's pattern to a whole-value matcher (`^(?:pattern)$`, Unicode mode). */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}
