import type { Router } from 'express';
import { contractRouter, jsonBody } from '@fieldhouse/http';
import { gatewayDocument } from '../docs/document.ts';
import { accountRoutes } from './account-routes.ts';
import { deviceSetupRoute } from './device-setup-route.ts';
import { identityRoutes, type IdentityContext } from './identity-routes.ts';
import { sessionRoutes } from './session-routes.ts';

export interface IdentityRouterDeps extends Omit<IdentityContext, 'json'> {
  /** Largest JSON body of the identity routes (BODY_LIMIT). */
  bodyLimit: string;
}

/** The identity routes as an Express router (answers checked against the gateway's document in tests). */
export function identityRouter(deps: IdentityRouterDeps): Router {
  return contractRouter(
    [...identityRoutes, ...accountRoutes, ...sessionRoutes, deviceSetupRoute],
    { ...deps, json: jsonBody(deps.bodyLimit) },
    gatewayDocument,
  );
}
