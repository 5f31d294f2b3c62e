/** OpenAPI 3.1 description of the routes the gateway serves itself (identity, CSRF, JWKS). */

import { problemResponse, schemaRef, sharedOpenApiSchemas } from '@fieldhouse/http';

const problem = { $ref: '#/components/responses/Problem' };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });

export const gatewayOpenApi = {
  openapi: '3.1.0',
  info: {
    title: 'Fieldhouse gateway: identity',
    version: '1.0.0',
    description:
      'Users, personal access tokens and browser sessions. Every other `/api` route is proxied: `/api/v1/*` to ' +
      'the collection service, `/api/polls*` to polls, `/api/events*` to events (see their documents). Errors are ' +
      'RFC 9457 problem documents with Laravel-compatible `message` and `errors`.',
  },
  servers: [{ url: '/' }],
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Personal access token `<id>|<secret>`.' },
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: 'fieldhouse_session',
        description: 'Session cookie; unsafe methods also need the XSRF-TOKEN cookie value in X-XSRF-TOKEN.',
      },
    },
    schemas: {
      ...sharedOpenApiSchemas,
      User: {
        type: 'object',
        required: ['id', 'name', 'email'],
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          email: { type: 'string', format: 'email' },
        },
      },
      Token: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          last_used_at: { type: ['string', 'null'], format: 'date-time' },
          expires_at: { type: ['string', 'null'], format: 'date-time' },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
      LoginResponse: {
        type: 'object',
        required: ['token', 'user'],
        properties: {
          token: { type: 'string', examples: ['1|x9W...c0ffee42'] },
          user: schemaRef('User'),
        },
      },
    },
    responses: {
      Problem: problemResponse('Error (problem document)'),
    },
  },
  paths: {
    '/api/v1/login': {
      post: {
        summary: 'Sign in (area A)',
        description:
          'Wrong credentials: 401. Failed attempts are limited per IP and e-mail, and per account with a ' +
          'growing delay (429 with Retry-After; docs/identity.md, "Login throttling").',
        requestBody: json({
          type: 'object',
          required: ['email', 'password'],
          properties: {
            email: { type: 'string' },
            password: { type: 'string', maxLength: 72 },
            device_name: { type: 'string' },
          },
        }),
        responses: {
          '200': { description: 'Signed in', ...json(schemaRef('LoginResponse')) },
          '401': problem,
          '422': problem,
          '429': problem,
        },
      },
    },
    '/api/login': {
      post: {
        summary: 'Sign in (area C): same users and answer as /api/v1/login',
        responses: {
          '200': { description: 'Signed in', ...json(schemaRef('LoginResponse')) },
          '401': problem,
          '422': problem,
          '429': problem,
        },
      },
    },
    '/api/v1/register': {
      post: {
        summary: 'Create an account (can be turned off: 403)',
        requestBody: json({
          type: 'object',
          required: ['name', 'email', 'password'],
          properties: {
            name: { type: 'string' },
            email: { type: 'string' },
            password: { type: 'string', minLength: 8 },
            password_confirmation: { type: 'string' },
          },
        }),
        responses: {
          '201': {
            description: 'Registered and signed in',
            ...json(schemaRef('LoginResponse')),
          },
          '403': problem,
          '422': problem,
        },
      },
    },
    '/api/v1/csrf-cookie': {
      get: {
        summary: 'Start a browser session: sets the session cookie and the XSRF-TOKEN cookie',
        responses: { '204': { description: 'Cookies set' } },
      },
    },
    '/api/v1/me': {
      get: {
        summary: 'The signed-in user',
        security: [{ bearer: [] }, { session: [] }],
        responses: {
          '200': {
            description: 'User',
            ...json({ type: 'object', properties: { data: schemaRef('User') } }),
          },
          '401': problem,
        },
      },
    },
    '/api/v1/logout': {
      post: {
        summary: 'Revoke the token used, or end the session',
        security: [{ bearer: [] }, { session: [] }],
        responses: { '204': { description: 'Signed out' }, '401': problem, '403': problem },
      },
    },
    '/api/v1/tokens': {
      get: {
        summary: "The caller's tokens (never their secrets)",
        security: [{ bearer: [] }, { session: [] }],
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          {
            name: 'per_page',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
          },
        ],
        responses: {
          '200': {
            description: 'Page of tokens',
            ...json({
              type: 'object',
              properties: {
                data: { type: 'array', items: schemaRef('Token') },
                pagination: schemaRef('Pagination'),
              },
            }),
          },
          '401': problem,
          '422': problem,
        },
      },
      post: {
        summary: 'Create a token; its plain value is shown in this answer only',
        security: [{ bearer: [] }, { session: [] }],
        requestBody: json({
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 255 } },
        }),
        responses: {
          '201': {
            description: 'Created',
            ...json({
              type: 'object',
              properties: {
                token: { type: 'string' },
                data: {
                  allOf: [schemaRef('Token'), { type: 'object', properties: { token: { type: 'string' } } }],
                },
              },
            }),
          },
          '401': problem,
          '422': problem,
        },
      },
    },
    '/api/v1/tokens/{token_id}': {
      delete: {
        summary: 'Revoke a token of the caller; effective on the next request',
        security: [{ bearer: [] }, { session: [] }],
        parameters: [{ name: 'token_id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '204': { description: 'Revoked' }, '401': problem, '404': problem },
      },
    },
    '/.well-known/jwks.json': {
      get: {
        summary: 'Public keys of the internal JWTs the gateway signs',
        responses: { '200': { description: 'JWKS' } },
      },
    },
  },
} as const;
