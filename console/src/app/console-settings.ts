import { useQuery } from '@tanstack/react-query';
import { call, gatewayApi } from '../api/client.ts';
import type { operations } from '../api/generated/gateway.ts';

/** The deployment's settings for the console: `{map: {tile_url, attribution, attribution_url}}`. */
export type ConsoleSettings = operations['consoleSettings']['responses'][200]['content']['application/json'];

/**
 * The deployment's settings (`GET /api/v1/console/settings`, served by the gateway from its
 * `MAP_TILE_*` variables: docs/console.md, "Map tiles"), read once per visit: they change only
 * with a new deployment.
 */
export const useConsoleSettings = () =>
  useQuery({
    queryKey: ['console', 'settings'],
    queryFn: () => call(gatewayApi.GET('/api/v1/console/settings')),
    staleTime: Infinity,
    meta: { signInOn401: false },
  });
