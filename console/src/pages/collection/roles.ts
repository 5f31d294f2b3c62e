import type { Role } from './types.ts';

/**
 * What each workspace role may do, as the collection service enforces it (docs/collection.md,
 * "Roles"). The console hides or disables what the caller's role may not do; the service
 * still decides (a 403 is shown next to the action).
 */
export type Action =
  | 'workspace.update'
  | 'workspace.delete'
  | 'members.manage'
  | 'project.manage'
  | 'project.delete'
  | 'form.edit'
  | 'submission.create'
  | 'submission.view_all'
  | 'submission.review'
  | 'submission.delete'
  | 'export.request'
  | 'analysis.manage'
  | 'stats.view'
  | 'webhooks.manage';

const ALLOWED: Record<Action, readonly Role[]> = {
  'workspace.update': ['owner', 'admin'],
  'workspace.delete': ['owner'],
  'members.manage': ['owner', 'admin'],
  'project.manage': ['owner', 'admin', 'manager'],
  'project.delete': ['owner', 'admin'],
  'form.edit': ['owner', 'admin', 'manager'],
  'submission.create': ['owner', 'admin', 'manager', 'collector'],
  'submission.view_all': ['owner', 'admin', 'manager', 'viewer'],
  'submission.review': ['owner', 'admin', 'manager'],
  'submission.delete': ['owner', 'admin', 'manager'],
  'export.request': ['owner', 'admin', 'manager', 'viewer'],
  'analysis.manage': ['owner', 'admin', 'manager'],
  'stats.view': ['owner', 'admin', 'manager', 'viewer'],
  'webhooks.manage': ['owner', 'admin', 'manager'],
};

/** Whether `role` (the caller's role in the workspace; undefined when not a member) may do `action`. */
export const can = (role: Role | undefined, action: Action): boolean =>
  role !== undefined && ALLOWED[action].includes(role);

/** The roles a member with `role` may give or take away (only an owner touches owners). */
export const assignableRoles = (role: Role | undefined): Role[] =>
  role === 'owner'
    ? ['owner', 'admin', 'manager', 'collector', 'viewer']
    : role === 'admin'
      ? ['admin', 'manager', 'collector', 'viewer']
      : [];
