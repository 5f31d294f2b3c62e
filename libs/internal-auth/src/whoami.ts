import Joi from 'joi';
import { defineRoute } from '@fieldhouse/http';

/**
 * The caller as the gateway's JWT describes it (claims.ts `Caller`, without `emailVerified`), as a
 * named response schema.
 */
const callerSchema = Joi.object({
  userId: Joi.number().integer().allow(null).required().description('User id; null for an anonymous caller'),
  name: Joi.string().allow(null).required(),
  email: Joi.string().allow(null).required(),
  tokenId: Joi.number()
    .integer()
    .allow(null)
    .required()
    .description('Personal access token id, when one was used'),
  method: Joi.string().valid('token', 'session', 'anonymous', 'device', 'gateway').required(),
  device: Joi.object({
    id: Joi.string().required(),
    eventId: Joi.string().required(),
    scope: Joi.string().valid('checkin').required(),
  })
    .allow(null)
    .required()
    .description('The scanner device, when the caller is one (method device)'),
  ip: Joi.string().allow(null).required().description('The client address the gateway saw'),
  requestTokenId: Joi.string().required().description('The JWT id, unique per proxied request'),
}).id('Caller');

/**
 * `GET <prefix>/_whoami` of a service: `{data: caller}`, the identity the gateway forwarded in its
 * signed JWT (design.md, "Internal authentication"); anonymous callers get `userId: null`, and a
 * request that did not come through the gateway is a 401 (requireGateway). A diagnostic every
 * service declares the same way.
 */
export const whoamiRoute = (path: string) =>
  defineRoute({
    method: 'get',
    path,
    operationId: 'whoami',
    summary: 'The caller as the gateway describes it',
    description:
      'The identity the gateway forwarded in its signed JWT. Anonymous callers sent by the gateway get ' +
      '`userId: null`; a request not sent through the gateway is a 401.',
    tags: ['Diagnostics'],
    access: 'optional',
    responses: { 200: { description: 'The caller', body: Joi.object({ data: callerSchema.required() }) } },
    problems: { 401: 'Not sent through the gateway' },
    handler: (_input, _ctx, req) => {
      // `emailVerified` stays inside the services (invitations); this diagnostic's shape is unchanged.
      // App users reach only the OpenRosa routes (the gateway refuses them elsewhere).
      const { emailVerified: _verified, appUser: _appUser, ...caller } = req.caller;
      return { body: { data: caller } };
    },
  });
