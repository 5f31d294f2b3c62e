import { whoamiRoute } from '@fieldhouse/internal-auth';

/** `GET /api/v1/_whoami`: the actor as the gateway describes it (libs/internal-auth). */
export const whoamiRoutes = [whoamiRoute('/api/v1/_whoami')];
