import Joi from 'joi';
import { routeDeclarer } from '@fieldhouse/http';

/** What the JWKS route serves: the public keys of the internal JWTs (JWK objects). */
export interface JwksContext {
  jwks: { keys: object[] };
}

/**
 * GET /.well-known/jwks.json: the public keys the services verify the gateway's internal JWTs
 * with (design.md, "Internal tokens"); cacheable for 5 minutes.
 */
export const jwksRoute = routeDeclarer<JwksContext>()({
  method: 'get',
  path: '/.well-known/jwks.json',
  operationId: 'jwks',
  summary: 'Public keys of the internal JWTs the gateway signs (JWKS)',
  tags: ['internal'],
  access: 'public',
  responses: {
    200: {
      description: 'The key set (RFC 7517)',
      body: Joi.object({ keys: Joi.array().items(Joi.object().unknown(true)).required() }),
      headers: { 'Cache-Control': { description: '`public, max-age=300`' } },
    },
  },
  handler: (_input, ctx) => ({ body: ctx.jwks, headers: { 'Cache-Control': 'public, max-age=300' } }),
});
