import { pathIdParam } from '@fieldhouse/http';
import Joi from 'joi';
import {
  APPEARANCES,
  fieldCreateSchema,
  fieldUpdateSchema,
  languageCode,
  type FieldBody,
} from '../domain/field-definition.ts';
import { FIELD_TYPES } from '../domain/types.ts';
import type { VersionCreate, VersionLanguagesInput } from '../domain/versions.ts';
import { dateTime } from './common-schemas.ts';

/** `{version_id}` of the version paths (spec 4.1 "Versions and fields"). */
export const versionParams = Joi.object<{ version_id: number }>({ version_id: pathIdParam() });

/** `{version_id}/fields/{field_id}`. */
export const fieldParams = Joi.object<{ version_id: number; field_id: number }>({
  version_id: pathIdParam(),
  field_id: pathIdParam(),
});

const languages = () =>
  Joi.array()
    .items(languageCode())
    .max(20)
    .unique()
    .description('BCP 47 codes of the form’s languages (form model of issue 34); empty: one language');

/**
 * Body of `POST /projects/{project_id}/versions`: `{copy_last_published?}` (default false), and
 * the version's `languages`/`default_language` (a copy keeps the copied version's unless given).
 */
export const versionBody = Joi.object<VersionCreate>({
  copy_last_published: Joi.boolean().default(false),
  languages: languages(),
  default_language: languageCode().allow(null),
});

/** Body of `PUT /versions/{version_id}`: a draft's languages. */
export const versionLanguagesBody = Joi.object<VersionLanguagesInput>({
  languages: languages().required(),
  default_language: languageCode().allow(null).description('One of `languages`; the first when absent'),
});

/** Body of `POST /versions/{version_id}/fields` (domain/field-definition.ts). */
export const fieldBody = fieldCreateSchema as Joi.ObjectSchema<FieldBody>;

/** Body of `PUT /versions/{version_id}/fields/{field_id}`: the same keys, all optional. */
export const fieldPatch = fieldUpdateSchema as Joi.ObjectSchema<Partial<FieldBody>>;

/** A form version; `field_count` on lists and single answers. */
const versionKeys = {
  id: Joi.number().integer().required(),
  project_id: Joi.number().integer().required(),
  number: Joi.number().integer().required(),
  status: Joi.string().valid('draft', 'published').required(),
  is_published: Joi.boolean().required(),
  copied_from_version_id: Joi.number().integer().allow(null).required(),
  languages: Joi.array().items(Joi.string()).required().description('BCP 47 codes; empty: one language'),
  default_language: Joi.string().allow(null).required(),
  field_count: Joi.number().integer(),
  published_at: dateTime().allow(null).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
};
export const versionSchema = Joi.object(versionKeys).id('Version');

/** A language code as a key of `translations`. */
const LANGUAGE_KEY = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** An expression property of a field answer (ODK XPath subset of @fieldhouse/form-logic), null when unset. */
const expression = (description: string) => Joi.string().allow(null).required().description(description);

/** A field of a form version (`uuid` stays the same across copied versions). */
export const fieldSchema = Joi.object({
  id: Joi.number().integer().required(),
  uuid: Joi.string().guid().required(),
  version_id: Joi.number().integer().required(),
  name: Joi.string().required(),
  label: Joi.string().required(),
  type: Joi.string()
    .valid(...FIELD_TYPES)
    .required(),
  required: Joi.boolean().required(),
  choices: Joi.array()
    .items(
      Joi.object({
        value: Joi.string().required(),
        label: Joi.string().required().description('In the default language'),
        properties: Joi.object()
          .pattern(/^[A-Za-z_][A-Za-z0-9_]*$/, Joi.string().allow(''))
          .description('What a choice_filter reads by bare name'),
        translations: Joi.object()
          .pattern(LANGUAGE_KEY, Joi.object({ label: Joi.string() }))
          .description('The label in the other languages'),
      }),
    )
    .allow(null)
    .required()
    .description('The options of select_one and select_multiple fields; null for every other type'),
  constraints: Joi.object({
    min: Joi.number(),
    max: Joi.number(),
    max_length: Joi.number().integer(),
    pattern: Joi.string(),
  }).required(),
  parent: Joi.string()
    .allow(null)
    .required()
    .description('The name of the group or repeat containing the field; null at the top level'),
  hint: Joi.string().allow(null).required(),
  relevant: expression('Shown and answered only when true (on a group/repeat: everything inside)'),
  constraint: expression('A valid answer makes it true (`.` is the answer)'),
  constraint_message: Joi.string().allow(null).required(),
  required_if: expression('The expression form of `required`'),
  required_message: Joi.string().allow(null).required(),
  calculation: expression('The value of a calculate field'),
  default: Joi.alternatives()
    .try(Joi.string(), Joi.number(), Joi.boolean(), Joi.array().items(Joi.string()), Joi.valid(null))
    .required()
    .description('A literal value of the field type, pre-filled by the web form'),
  read_only: Joi.boolean().required(),
  choice_filter: expression('Select types: evaluated per choice; a bare name is the choice’s property'),
  appearance: Joi.string()
    .valid(...APPEARANCES)
    .allow(null)
    .required(),
  repeat_count: Joi.alternatives()
    .try(Joi.number().integer(), Joi.string(), Joi.valid(null))
    .required()
    .description('Repeats: a fixed count or an expression'),
  min_repeats: Joi.number().integer().allow(null).required(),
  max_repeats: Joi.number().integer().allow(null).required(),
  translations: Joi.object()
    .pattern(
      LANGUAGE_KEY,
      Joi.object({
        label: Joi.string(),
        hint: Joi.string(),
        constraint_message: Joi.string(),
        required_message: Joi.string(),
      }),
    )
    .required()
    .description('Texts in the version’s other languages: `{"fr": {"label": "..."}}`'),
  position: Joi.number().integer().required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
}).id('Field');

/** A form version with its fields in form order. */
export const versionWithFieldsSchema = Joi.object({
  ...versionKeys,
  fields: Joi.array().items(fieldSchema).required(),
}).id('VersionWithFields');
