import { pathIdSchema, type IdKind } from '@fieldhouse/http';
import { notFound } from '@fieldhouse/problem';

/** Largest id of a PostgreSQL `integer` column (workspaces, projects...) and of a `bigint` read as a number (submissions). */
const ID_MAX: Record<IdKind, number> = { int: 2_147_483_647, bigint: Number.MAX_SAFE_INTEGER };

/**
 * The schema of an integer id in a path: documented as {@link pathIdSchema} (decimal, 1 to
 * 2^31-1), parsed to the id, or to 0 when it is not one so that {@link pathId} answers it.
 */
export const pathIdParam = (kind: IdKind = 'int') => pathIdSchema(kind).failover(0);

/**
 * The id a {@link pathIdParam} parsed.
 * @throws ProblemError 404 (nothing can have that id) naming the parameter by `name`, the name
 * its answers have always used (`workspaceId`, `projectId`...: clients read `errors` by it).
 */
export function pathId(value: number, name: string, kind: IdKind = 'int'): number {
  if (value > 0) return value;
  throw notFound(`Nothing has this ${name}: ids are integers from 1 to ${ID_MAX[kind]}.`, {
    errors: { [name]: [`The ${name} must be an integer from 1 to ${ID_MAX[kind]}.`] },
  });
}
