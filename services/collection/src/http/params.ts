/**
 * Path ids: the shared rule of `@fieldhouse/http` (an integer within its column's range, else
 * 404 naming the parameter). Submissions have `bigint` ids, everything else `integer` ones.
 */
export { idParam } from '@fieldhouse/http';
