import Joi from 'joi';
import { idSchema, pathIdParam } from '@fieldhouse/http';
import { ROLES } from '../domain/roles.ts';
import type { MemberInput, WorkspaceInput } from '../domain/workspaces.ts';
import { dateTime } from './common-schemas.ts';

/** A role in a workspace (docs/collection.md, "Roles"). */
export const roleSchema = Joi.string()
  .valid(...ROLES)
  .id('Role');

/** `{workspace_id}` of the workspace paths. */
export const workspaceParams = Joi.object<{ workspace_id: number }>({ workspace_id: pathIdParam() });

/** `{workspace_id}/members/{user_id}`. */
export const memberParams = Joi.object<{ workspace_id: number; user_id: number }>({
  workspace_id: pathIdParam(),
  user_id: pathIdParam(),
});

/** Body of `POST /workspaces`: `{name, description?}`. */
export const workspaceBody = Joi.object<WorkspaceInput>({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
});

/** Body of `PUT /workspaces/{workspace_id}`: the same keys, all optional. */
export const workspacePatch = workspaceBody.fork(['name'], (s) => s.optional());

/** Body of `POST /workspaces/{workspace_id}/members`: `{user_id | email, role}` (exactly one of the first two). */
export const memberBody = Joi.object<MemberInput>({
  user_id: idSchema(),
  email: Joi.string().email({ tlds: false }).max(254),
  role: roleSchema.required(),
}).xor('user_id', 'email');

/** A member of a workspace: name and e-mail from the users projection (null until known). */
export const memberSchema = Joi.object({
  user_id: Joi.number().integer().required(),
  name: Joi.string().allow(null).required(),
  email: Joi.string().allow(null).required(),
  role: roleSchema.required(),
  joined_at: dateTime().required(),
}).id('Member');

/** A workspace; `role` is the caller's, `members` present on the single-workspace answers. */
export const workspaceSchema = Joi.object({
  id: Joi.number().integer().required(),
  name: Joi.string().required(),
  description: Joi.string().allow(null, '').required(),
  created_by: Joi.number().integer().required(),
  role: roleSchema,
  members: Joi.array().items(memberSchema),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
}).id('Workspace');
