import { Router } from 'express';
import { contractRouter } from '@fieldhouse/http';
import type { EventsContext } from '../domain/context.ts';
import { callerProjection } from './caller-sync.ts';
import { eventsDocument } from './document.ts';
import { eventsOpenRouteSpecs, eventsSignedInRouteSpecs } from './routes.ts';

/**
 * The events service's Express router (full paths under /api/events): `_whoami`, then the
 * caller projection (401 for anonymous callers; the caller's user copy refreshed), then every
 * declared route (parsed and checked against the document).
 */
export function eventsRouter(ctx: EventsContext): Router {
  const router = Router();
  router.use(contractRouter(eventsOpenRouteSpecs, ctx, eventsDocument));
  router.use(callerProjection(ctx));
  router.use(contractRouter(eventsSignedInRouteSpecs, ctx, eventsDocument));
  return router;
}
