import { whoamiRoute } from '@fieldhouse/internal-auth';

/** `GET /api/polls/_whoami`: the caller as the gateway describes it (libs/internal-auth). */
export const whoamiRoutes = [whoamiRoute('/api/polls/_whoami')];
