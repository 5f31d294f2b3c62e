import { whoamiRoute } from '@fieldhouse/internal-auth';

/** `GET /api/events/_whoami`: the caller as the gateway describes it (libs/internal-auth). */
export const whoamiRoutes = [whoamiRoute('/api/events/_whoami')];
