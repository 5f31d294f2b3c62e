/** TRANSITION: the list filters moved to domain/list-filters.ts; this path stays for the submission routes until they move. */
export { listFiltersSchema, parseListFilters } from '../domain/list-filters.ts';
