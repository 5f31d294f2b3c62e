import Joi from 'joi';
import type { FieldErrors } from '@fieldhouse/problem';
import {
  FIELD_TYPES,
  LOGIC_KEYS,
  NUMBER_TYPES,
  SELECT_TYPES,
  VALUE_TYPES,
  type Choice,
  type Constraints,
  type FieldDef,
  type FieldLogic,
  type FieldType,
  type Translations,
  type ValueType,
} from './types.ts';
import { compilePattern, VALUE_VALIDATORS } from './value-validators.ts';

/** A BCP 47 language code (`en`, `fr`, `pt-BR`, `zh-Hant`). */
export const languageCode = () =>
  Joi.string()
    .pattern(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a BCP 47 language code')
    .max(35);

/**
 * A language code as the key of a per-language object: {@link languageCode}'s rule as one RegExp
 * (its 35-character limit as a lookahead). A RegExp key, not a joi schema, because the OpenAPI
 * document is generated from these schemas (joi-to-json) and only a RegExp key becomes
 * `patternProperties`; a schema key was dropped, so the console's generated types said
 * `Record<string, never>` for `{"en": "...", "fr": "..."}`.
 */
const LANGUAGE_KEY = /^(?=.{2,35}$)[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * A text that may be given per language (form model of issue 34): a plain string, or
 * `{"en": "...", "fr": "..."}` (normalised by {@link normaliseTexts}).
 */
const text = (max: number) =>
  Joi.alternatives().try(
    Joi.string().trim().min(1).max(max),
    Joi.object().pattern(LANGUAGE_KEY, Joi.string().trim().min(1).max(max)).min(1),
  );

/** An expression in the ODK XPath subset of `@fieldhouse/form-logic` (compiled when saved). */
const expression = () => Joi.string().trim().max(4000).allow(null, '');

const translationsSchema = Joi.object().pattern(
  LANGUAGE_KEY,
  Joi.object({
    label: Joi.string().trim().max(500),
    hint: Joi.string().trim().max(2000),
    constraint_message: Joi.string().trim().max(500),
    required_message: Joi.string().trim().max(500),
  }),
);

const choice = Joi.object({
  value: Joi.string().trim().min(1).max(200).required(),
  label: text(500).required(),
  properties: Joi.object().pattern(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, Joi.string().max(500).allow('')),
  translations: Joi.object().pattern(LANGUAGE_KEY, Joi.object({ label: Joi.string().trim().max(500) })),
});

const constraints = Joi.object<Constraints>({
  min: Joi.number(),
  max: Joi.number(),
  max_length: Joi.number().integer().min(1).max(100_000),
  pattern: Joi.string().min(1).max(500),
});

/** Appearances of the form model (issue 34); anything else is a 422 naming this set. */
export const APPEARANCES = ['minimal', 'horizontal', 'likert', 'multiline', 'numbers', 'field-list'] as const;

const fieldName = () =>
  Joi.string().pattern(
    /^[A-Za-z_][A-Za-z0-9_]{0,99}$/,
    'a name (letters, digits, _; not starting with a digit)',
  );

/** The logic and display properties of the form model (issue 34), all optional. */
const logicKeys = {
  parent: fieldName().allow(null),
  hint: text(2000).allow(null),
  relevant: expression(),
  constraint: expression(),
  constraint_message: text(500).allow(null),
  required_if: expression(),
  required_message: text(500).allow(null),
  calculation: expression(),
  default: Joi.alternatives()
    .try(Joi.string().max(100_000), Joi.number(), Joi.boolean(), Joi.array().items(Joi.string()))
    .allow(null),
  read_only: Joi.boolean(),
  choice_filter: expression(),
  appearance: Joi.string()
    .valid(...APPEARANCES)
    .allow(null),
  repeat_count: Joi.alternatives().try(Joi.number().integer().min(0).max(10_000), expression()).allow(null),
  min_repeats: Joi.number().integer().min(0).max(10_000).allow(null),
  max_repeats: Joi.number().integer().min(0).max(10_000).allow(null),
  translations: translationsSchema,
};

/**
 * Body of `POST /versions/{id}/fields` (design.md: `{name, label, type, required?, choices?}` +
 * constraints, and the form model of issue 34: `parent`, the logic properties, texts per language).
 */
export const fieldCreateSchema = Joi.object({
  name: fieldName().required(),
  label: text(500).required(),
  type: Joi.string()
    .valid(...FIELD_TYPES)
    .required(),
  required: Joi.boolean().default(false),
  choices: Joi.array().items(choice).min(1).max(1000).unique('value').allow(null),
  constraints: constraints.default({}),
  position: Joi.number().integer().min(0).max(100_000),
  ...logicKeys,
});

/** Body of `PUT /versions/{id}/fields/{field_id}`: the same keys, all optional. */
export const fieldUpdateSchema = fieldCreateSchema
  .fork(['name', 'label', 'type'], (s) => s.optional())
  .keys({
    required: Joi.boolean(),
    constraints,
  });

/** A text as the API accepts it: plain, or by language. */
type TextInput = string | Record<string, string>;

/** A choice as the API accepts it (its label plain or by language). */
type ChoiceInput = Omit<Choice, 'label'> & { label: TextInput };

/** A field as `POST`/`PUT /versions/{id}/fields` accept it (see {@link fieldCreateSchema}). */
export interface FieldBody {
  name: string;
  label: TextInput;
  type: FieldType;
  required: boolean;
  choices: ChoiceInput[] | null;
  constraints: Constraints;
  position?: number;
  parent?: string | null;
  hint?: TextInput | null;
  relevant?: string | null;
  constraint?: string | null;
  constraint_message?: TextInput | null;
  required_if?: string | null;
  required_message?: TextInput | null;
  calculation?: string | null;
  default?: unknown;
  read_only?: boolean;
  choice_filter?: string | null;
  appearance?: string | null;
  repeat_count?: number | string | null;
  min_repeats?: number | null;
  max_repeats?: number | null;
  translations?: Translations;
}

/** The version's languages, as the normalisation needs them. */
export interface VersionLanguages {
  languages: readonly string[];
  default_language: string | null;
}

const TEXT_KEYS = ['hint', 'constraint_message', 'required_message'] as const;

/**
 * A field body's texts normalised (form model of issue 34, "Languages"): each text given per
 * language becomes the default language's text (a string) plus `translations[lang][key]` for the
 * others; `translations` sent as such are merged under them; choice labels likewise. Logic
 * properties go to `logic` (empty strings and nulls dropped). Only the keys present in `body`
 * are returned (a PUT is partial); `logic` and `translations` come whole, merged over `current`.
 * @returns the stored shape, and the errors keyed by property (`label`, `choices.2.label`,
 *   `translations.de`): a language not among the version's, a per-language text without the
 *   default language's.
 */
export function normaliseTexts(
  body: Partial<FieldBody>,
  version: VersionLanguages,
  current?: Pick<FieldDef, 'logic' | 'translations'>,
): {
  field: Partial<Omit<FieldDef, 'id' | 'uuid'>> & { position?: number };
  errors: FieldErrors;
} {
  const errors: FieldErrors = {};
  const languages = new Set(version.languages);
  const def = version.default_language ?? version.languages[0] ?? null;
  const translations: Translations = structuredClone(current?.translations ?? {});
  const checkLanguage = (key: string, lang: string): boolean => {
    if (languages.has(lang)) return true;
    (errors[key] ??= []).push(
      languages.size
        ? `${lang} is not one of the version's languages (${[...languages].join(', ')})`
        : `${lang}: this version declares no languages; give a plain text or set the version's languages first`,
    );
    return false;
  };
  /** The default language's text of `value`, recording the others with `put`. */
  const split = (
    key: string,
    value: TextInput,
    put: (lang: string, t: string) => void,
  ): string | undefined => {
    if (typeof value === 'string') return value;
    let own: string | undefined;
    for (const [lang, t] of Object.entries(value)) {
      if (!checkLanguage(key, lang)) continue;
      if (lang === def) own = t;
      else put(lang, t);
    }
    if (own === undefined && def && languages.size)
      (errors[key] ??= []).push(`the text in the default language (${def}) is required`);
    return own;
  };
  const putText = (key: 'label' | (typeof TEXT_KEYS)[number]) => (lang: string, t: string) => {
    (translations[lang] ??= {})[key] = t;
  };

  if (body.translations)
    for (const [lang, texts] of Object.entries(body.translations))
      if (checkLanguage(`translations.${lang}`, lang))
        translations[lang] = { ...translations[lang], ...texts };

  const { label, choices, hint, constraint_message, required_message, translations: _t, ...rest } = body;
  const field: Partial<Omit<FieldDef, 'id' | 'uuid'>> & { position?: number } = {};
  for (const k of ['name', 'type', 'required', 'constraints', 'position', 'parent'] as const)
    if (rest[k] !== undefined) (field as Record<string, unknown>)[k] = rest[k];
  if (label !== undefined) field.label = split('label', label, putText('label')) ?? '';
  if (choices !== undefined)
    field.choices =
      choices?.map((c, i) => {
        const out: Choice = { value: c.value, label: '' };
        out.label =
          split(`choices.${i}.label`, c.label, (lang, t) => {
            (out.translations ??= {})[lang] = { label: t };
          }) ?? '';
        if (c.properties) out.properties = c.properties;
        if (c.translations)
          for (const [lang, t] of Object.entries(c.translations))
            if (checkLanguage(`choices.${i}.translations.${lang}`, lang))
              out.translations = { ...out.translations, [lang]: { ...t, ...out.translations?.[lang] } };
        return out;
      }) ?? null;

  const logic: Record<string, unknown> = { ...(current?.logic ?? {}) };
  const texts = { hint, constraint_message, required_message };
  for (const k of TEXT_KEYS) {
    const v = texts[k];
    if (v === undefined) continue;
    for (const t of Object.values(translations)) delete t[k];
    if (v === null) delete logic[k];
    else logic[k] = split(k, v, putText(k));
  }
  for (const k of LOGIC_KEYS) {
    if ((TEXT_KEYS as readonly string[]).includes(k) || !(k in rest)) continue;
    const v = (rest as Record<string, unknown>)[k];
    if (v === null || v === '' || v === undefined) delete logic[k];
    else logic[k] = v;
  }
  for (const [lang, t] of Object.entries(translations)) if (!Object.keys(t).length) delete translations[lang];
  const changesLogic = LOGIC_KEYS.some((k) => k in body);
  if (changesLogic || !current) field.logic = logic as FieldLogic;
  if (changesLogic || body.translations !== undefined || label !== undefined || !current)
    field.translations = translations;
  return { field, errors };
}

export interface FieldShape {
  name?: string;
  type: FieldType;
  choices?: Choice[] | null;
  constraints: Constraints;
  logic?: FieldLogic;
}

/**
 * Checks that choices and constraints fit the type: choices for (and only for) select types;
 * `min`/`max` only for integer and decimal (min <= max); `max_length`/`pattern` only for text,
 * with a pattern that compiles; a `default` valid for the type (form model of issue 34: none for
 * `group`, `repeat`, `note`, `calculate`). The logic properties are the engine's to check
 * (domain/form-engine.ts).
 */
export function fieldShapeErrors(f: FieldShape): FieldErrors {
  const errors: FieldErrors = {};
  const isSelect = SELECT_TYPES.includes(f.type);
  if (isSelect && !f.choices?.length) errors.choices = [`choices are required for type ${f.type}`];
  if (!isSelect && f.choices?.length)
    errors.choices = [`choices are only allowed for select_one and select_multiple`];
  const c = f.constraints;
  if ((c.min !== undefined || c.max !== undefined) && !NUMBER_TYPES.includes(f.type))
    errors.constraints = ['min and max are only allowed for integer and decimal fields'];
  if (c.min !== undefined && c.max !== undefined && c.min > c.max)
    (errors['constraints.min'] ??= []).push('min must not exceed max');
  if ((c.max_length !== undefined || c.pattern !== undefined) && f.type !== 'text')
    (errors.constraints ??= []).push('max_length and pattern are only allowed for text fields');
  if (c.pattern !== undefined) {
    try {
      compilePattern(c.pattern);
    } catch {
      (errors['constraints.pattern'] ??= []).push('pattern is not a valid regular expression');
    }
  }
  const dflt = f.logic?.default;
  if (dflt !== undefined && dflt !== null) {
    if (!(VALUE_TYPES as readonly string[]).includes(f.type) || f.type === 'photo')
      errors.default = [`a ${f.type} field has no default value`];
    else {
      const problem = VALUE_VALIDATORS[f.type as ValueType](dflt, {
        name: f.name ?? 'default',
        type: f.type,
        choices: f.choices ?? null,
        constraints: c,
      } as FieldDef);
      if (problem) errors.default = [`default ${problem}`];
    }
  }
  return errors;
}
