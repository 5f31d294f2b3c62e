/** TRANSITION: the context moved to domain/context.ts; this path stays for the submission routes until they move. */
export type { CollectionContext } from '../domain/context.ts';
