import { pathIdParam } from '@fieldhouse/http';
import Joi from 'joi';
import { fieldCreateSchema, fieldUpdateSchema } from '../domain/field-definition.ts';
import { FIELD_TYPES } from '../domain/fields.ts';
import type { FieldInput } from '../domain/versions.ts';
import { dateTime } from './common-schemas.ts';

/** `{version_id}` of the version paths (spec 4.1 "Versions and fields"). */
export const versionParams = Joi.object<{ version_id: number }>({ version_id: pathIdParam() });

/** `{version_id}/fields/{field_id}`. */
export const fieldParams = Joi.object<{ version_id: number; field_id: number }>({
  version_id: pathIdParam(),
  field_id: pathIdParam(),
});

/** Body of `POST /projects/{project_id}/versions`: `{copy_last_published?}` (default false). */
export const versionBody = Joi.object<{ copy_last_published: boolean }>({
  copy_last_published: Joi.boolean().default(false),
});

/** Body of `POST /versions/{version_id}/fields` (domain/field-definition.ts). */
export const fieldBody = fieldCreateSchema as Joi.ObjectSchema<FieldInput>;

/** Body of `PUT /versions/{version_id}/fields/{field_id}`: the same keys, all optional. */
export const fieldPatch = fieldUpdateSchema as Joi.ObjectSchema<Partial<FieldInput>>;

/** A form version; `field_count` on lists and single answers. */
const versionKeys = {
  id: Joi.number().integer().required(),
  project_id: Joi.number().integer().required(),
  number: Joi.number().integer().required(),
  status: Joi.string().valid('draft', 'published').required(),
  is_published: Joi.boolean().required(),
  copied_from_version_id: Joi.number().integer().allow(null).required(),
  field_count: Joi.number().integer(),
  published_at: dateTime().allow(null).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
};
export const versionSchema = Joi.object(versionKeys).id('Version');

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
    .items(Joi.object({ value: Joi.string().required(), label: Joi.string().required() }))
    .allow(null)
    .required()
    .description('The options of select_one and select_multiple fields; null for every other type'),
  constraints: Joi.object({
    min: Joi.number(),
    max: Joi.number(),
    max_length: Joi.number().integer(),
    pattern: Joi.string(),
  }).required(),
  position: Joi.number().integer().required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
}).id('Field');

/** A form version with its fields in form order. */
export const versionWithFieldsSchema = Joi.object({
  ...versionKeys,
  fields: Joi.array().items(fieldSchema).required(),
}).id('VersionWithFields');
