import { routeDeclarer } from '@fieldhouse/http';
import { requireUser } from '@fieldhouse/internal-auth';
import type { PollsContext } from '../domain/context.ts';

/** Declares a polls route: handlers get the {@link PollsContext} (libs/http/src/contract). */
export const route = routeDeclarer<PollsContext>();

/**
 * `middleware` of the routes for signed-in users only (declared without `access`): 401
 * `unauthenticated` for an anonymous caller, before any parameter or body is parsed.
 */
export const signedIn = () => [requireUser];
