/**
 * OpenAPI 3.1 schemas every component's document shares, describing what this library and
 * `@fieldhouse/problem` answer: the problem document (design.md, "Errors") and the pagination
 * object of spec 2.1. Spread into `components.schemas`.
 */
export const sharedOpenApiSchemas = {
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'message'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      message: { type: 'string' },
      code: { type: 'string' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
  },
  Pagination: {
    type: 'object',
    properties: {
      current_page: { type: 'integer' },
      last_page: { type: 'integer' },
      per_page: { type: 'integer' },
      total: { type: 'integer' },
    },
  },
} as const;
