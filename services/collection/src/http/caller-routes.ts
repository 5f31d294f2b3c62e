import Joi from 'joi';
import { callerSchema } from './caller-schemas.ts';
import { route } from './route.ts';

/** The caller as the service sees it (a diagnostic of the gateway's identity forwarding). */
export const callerRoutes = [
  route({
    method: 'get',
    path: '/api/v1/_whoami',
    operationId: 'whoami',
    summary: 'The caller as the gateway describes it',
    description:
      'The identity the gateway forwarded in its signed JWT (design.md, "Internal authentication").',
    tags: ['Diagnostics'],
    access: 'optional',
    responses: { 200: { description: 'Caller', body: Joi.object({ data: callerSchema.required() }) } },
    problems: { 401: 'Not sent through the gateway' },
    handler: (_input, _ctx, req) => ({ body: { data: req.caller } }),
  }),
];
