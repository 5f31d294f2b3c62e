import { route } from './route.ts';
import { WhoamiAnswer } from './whoami-schemas.ts';

/** The caller as the services see it (the gateway's trust tests read it). */
export const whoamiRoutes = [
  route({
    method: 'get',
    path: '/api/polls/_whoami',
    operationId: 'whoami',
    summary: 'The caller as the gateway’s JWT describes it',
    tags: ['Diagnostics'],
    access: 'optional',
    responses: { 200: { description: '`{data: caller}`', body: WhoamiAnswer } },
    handler: (_input, _ctx, req) => ({ body: { data: req.caller } }),
  }),
];
