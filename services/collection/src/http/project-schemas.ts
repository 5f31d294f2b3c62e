import { pathIdParam } from '@fieldhouse/http';
import Joi from 'joi';
import { COLLECT_ACCESS, settingsSchema } from '../domain/publication.ts';
import type { ProjectInput } from '../domain/projects.ts';
import { dateTime } from './common-schemas.ts';

/** `{project_id}` of the project paths. */
export const projectParams = Joi.object<{ project_id: number }>({ project_id: pathIdParam() });

/** `{workspace_id}/projects/{project_id}`. */
export const workspaceProjectParams = Joi.object<{ workspace_id: number; project_id: number }>({
  workspace_id: pathIdParam(),
  project_id: pathIdParam(),
});

/** Body of `POST /workspaces/{workspace_id}/projects`: `{name, description?}`. */
export const projectBody = Joi.object<ProjectInput>({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
});

/** Body of `PUT /projects/{project_id}`: the same keys, all optional. */
export const projectPatch = projectBody.fork(['name'], (s) => s.optional());

/** Body of the publish endpoints (spec 2.1 publication settings; absent keys keep their value). */
export const publicationSettingsBody = settingsSchema;

/** The publication settings of a project, every key present (spec 2.1). */
const publicationSettingsSchema = Joi.object({
  collect_access: Joi.string()
    .valid(...COLLECT_ACCESS)
    .required(),
  submission_limit: Joi.number().integer().allow(null).required(),
  collect_starts_at: Joi.string().isoDate().allow(null).required(),
  collect_expires_at: Joi.string().isoDate().allow(null).required(),
  allow_multiple_submissions: Joi.boolean().required(),
  allow_edits: Joi.boolean().required(),
  require_consent: Joi.boolean().required(),
  consent_text: Joi.string().allow(null).required(),
  notify_on_submission: Joi.boolean().required(),
  notification_emails: Joi.array().items(Joi.string()).required(),
}).id('PublicationSettings');

/** A project; `current_version_id` is the published form version collectors get. */
export const projectSchema = Joi.object({
  id: Joi.number().integer().required(),
  workspace_id: Joi.number().integer().required(),
  name: Joi.string().required(),
  description: Joi.string().allow(null, '').required(),
  is_published: Joi.boolean().required(),
  published_at: dateTime().allow(null).required(),
  current_version_id: Joi.number().integer().allow(null).required(),
  require_consent: Joi.boolean().required(),
  consent_text: Joi.string().allow(null).required(),
  settings: publicationSettingsSchema.required(),
  created_by: Joi.number().integer().required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
}).id('Project');

/** Statistics of a project (counts per status, per UTC day, per collector). */
export const statsSchema = Joi.object({
  total: Joi.number().integer().required(),
  by_status: Joi.object()
    .pattern(/.*/, Joi.number().integer())
    .required()
    .description('Count per status, every status present'),
  by_day: Joi.array()
    .items(
      Joi.object({
        date: Joi.string().required().description('YYYY-MM-DD (UTC)'),
        count: Joi.number().integer().required(),
      }),
    )
    .required(),
  by_collector: Joi.array()
    .items(
      Joi.object({
        collector_id: Joi.number().integer().allow(null).required(),
        name: Joi.string().allow(null).required(),
        count: Joi.number().integer().required(),
      }),
    )
    .required(),
  last_submission_at: dateTime().allow(null).required(),
}).id('Stats');
