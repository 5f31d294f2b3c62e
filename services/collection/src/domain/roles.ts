import { ROLES, type Role } from './types.ts';
export { ROLES, type Role } from './types.ts';

export type Action =
  | 'workspace.view'
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
  | 'export.view_all'
  | 'stats.view'
  | 'webhooks.manage';

/** The permission table: action to the roles allowed to perform it. */
const PERMISSIONS: Record<Action, readonly Role[]> = {
  'workspace.view': ROLES,
  'workspace.update': ['owner', 'admin'],
  'workspace.delete': ['owner'],
  'members.manage': ['owner', 'admin'],
  'project.manage': ['owner', 'admin', 'manager'],
  'project.delete': ['owner', 'admin'],
  'form.edit': ['owner', 'admin', 'manager'],
  'submission.create': ['owner', 'admin', 'manager', 'collector'],
  'submission.view_all': ['owner', 'admin', 'manager', 'viewer'],
  'submission.review': ['owner', 'admin', 'manager'],
  /** Delete a submission for good (docs/collection.md, "Deleting a submission"); collectors cannot, even their own. */
  'submission.delete': ['owner', 'admin', 'manager'],
  /** Read and download exports requested by others (everyone reads their own). */
  'export.view_all': ['owner', 'admin', 'manager'],
  'stats.view': ['owner', 'admin', 'manager', 'viewer'],
  /** Subscribe endpoints to the workspace's events and read their delivery log (docs/webhooks.md). */
  'webhooks.manage': ['owner', 'admin', 'manager'],
};

/** True when `role` may perform `action`. */
export const can = (role: Role, action: Action): boolean => PERMISSIONS[action].includes(role);

/**
 * Whether a member with `role` (null: not a member) may see a submission and its photos:
 * roles with submission.view_all see all, collectors their own (docs/collection.md, "Roles").
 */
export const maySeeSubmission = (
  role: Role | null,
  submission: { collector_id: number | null },
  userId: number | null,
): boolean =>
  role !== null &&
  (can(role, 'submission.view_all') || (userId !== null && submission.collector_id === userId));

/** Only an owner may grant, change or remove the owner role (admins manage the other roles). */
export const mayManageRole = (actor: Role, target: Role): boolean => actor === 'owner' || target !== 'owner';
