/** OpenAPI 3.1 description of the collection service's routes (shown by the gateway under /docs). */
export const openApi = {
  openapi: '3.1.0',
  info: { title: 'Fieldhouse Area A: data collection', version: '1.0.0' },
  servers: [{ url: '/' }],
  paths: {
    '/api/v1/_whoami': {
      get: {
        summary: 'The caller as the gateway describes it (user id, name, e-mail, token id, method, IP)',
        responses: {
          '200': { description: 'Caller' },
          '401': { description: 'Not sent through the gateway' },
        },
      },
    },
  },
} as const;
