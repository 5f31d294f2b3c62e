/** Field types of spec 2.1. */
export const FIELD_TYPES = [
  'text',
  'integer',
  'decimal',
  'date',
  'time',
  'select_one',
  'select_multiple',
  'geopoint',
  'photo',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const SELECT_TYPES: readonly FieldType[] = ['select_one', 'select_multiple'];
export const NUMBER_TYPES: readonly FieldType[] = ['integer', 'decimal'];

export interface Choice {
  value: string;
  label: string;
}

/** Optional constraints: `min`/`max` for integer and decimal, `max_length`/`pattern` for text. */
export interface Constraints {
  min?: number;
  max?: number;
  max_length?: number;
  /** A JavaScript regular expression (Unicode mode) the whole text must match. */
  pattern?: string;
}

/** A form field as the validators need it. */
export interface FieldDef {
  id: number;
  uuid: string;
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  choices: Choice[] | null;
  constraints: Constraints;
}

/** Compiles a text field's pattern to a whole-value matcher (`^(?:pattern)$`, Unicode mode). */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}
