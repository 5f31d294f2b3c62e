import { settingsOf, type ProjectRow } from '../data/projects.ts';

/**
 * Whether a project's published form is open to a caller without membership (docs/collection.md,
 * "Publication"): `collect_access` `public` lets anyone in, `authenticated` any signed-in user
 * (`callerId` not null), `members` nobody. Same rule as `openToNonMembers` of http/access.ts,
 * for use cases that have no request.
 */
export function openToCaller(project: ProjectRow, callerId: number | null): boolean {
  if (!project.is_published) return false;
  const access = settingsOf(project).collect_access;
  return access === 'public' || (access === 'authenticated' && callerId !== null);
}
