import { Joi } from '@fieldhouse/config';
import { notModified, route } from './route.ts';

/** The caller as the gateway's JWT describes them (internal-auth's `Caller`). */
const Caller = Joi.object({
  userId: Joi.number().integer().allow(null).required(),
  name: Joi.string().allow(null).required(),
  email: Joi.string().allow(null).required(),
  tokenId: Joi.number().integer().allow(null).required(),
  method: Joi.string().valid('token', 'session', 'anonymous').required(),
  ip: Joi.string().allow(null).required(),
  requestTokenId: Joi.string().required(),
}).id('Caller');

/**
 * GET /api/events/_whoami: `{data: caller}`, the caller as the gateway's JWT describes it
 * (anonymous callers too: `userId` null). 401 when the request did not come through the gateway.
 */
export const whoamiRoutes = [
  route({
    method: 'get',
    path: '/api/events/_whoami',
    operationId: 'whoami',
    summary: 'The caller as the gateway describes it',
    description:
      'Anonymous callers sent by the gateway get `userId: null`. 401 when not sent through the gateway.',
    tags: ['Diagnostics'],
    access: 'optional',
    responses: {
      ...notModified,
      200: { description: 'The caller', body: Joi.object({ data: Caller.required() }).id('Whoami') },
    },
    handler: (_input, _ctx, req) => ({ body: { data: req.caller } }),
  }),
];
