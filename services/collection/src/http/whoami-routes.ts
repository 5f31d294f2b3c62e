import { whoamiRoute } from '@fieldhouse/internal-auth';

/** `GET /api/v1/_whoami`: the caller as the gateway describes it (libs/internal-auth). */
export const callerRoutes = [whoamiRoute('/api/v1/_whoami')];
