/**
 * OpenAPI 3.1 description of the collection service's routes (shown by the gateway under /docs).
 * Rules and tables behind these routes: docs/collection.md.
 */

import { problemResponse as err, schemaRef, sharedOpenApiSchemas } from '@fieldhouse/http';
import { EXPORT_FORMATS } from './data/exports.ts';
import { EXPORT_HEADERS } from './domain/export-columns.ts';
import { FIELD_TYPES } from './domain/fields.ts';
import { ROLES } from './domain/roles.ts';
import { STATUSES } from './domain/transitions.ts';
const one = (ref: string, description = 'OK') => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { data: schemaRef(ref) } },
    },
  },
});
const page = (ref: string) => ({
  description: 'Pagination envelope (spec 2.1)',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          data: { type: 'array', items: schemaRef(ref) },
          pagination: schemaRef('Pagination'),
        },
      },
    },
  },
});
const json = (ref: string) => ({
  required: true,
  content: { 'application/json': { schema: schemaRef(ref) } },
});
const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer' } });
const pageParams = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 } },
];
const common = {
  '401': err('Not signed in / not through the gateway'),
  '404': err('Unknown, or the caller is not a member'),
};
const write = {
  ...common,
  '403': err('The role does not allow it'),
  '422': err('Validation failed (errors by field)'),
};
const nullable = (type: string) => ({ type: [type, 'null'] });

export const openApi = {
  openapi: '3.1.0',
  info: { title: 'Fieldhouse Area A: data collection', version: '1.0.0' },
  servers: [{ url: '/' }],
  paths: {
    '/api/v1/_whoami': {
      get: {
        summary: 'The caller as the gateway describes it',
        responses: { '200': { description: 'Caller' }, '401': err('Not sent through the gateway') },
      },
    },
    '/api/v1/workspaces': {
      get: {
        summary: "The caller's workspaces",
        parameters: pageParams,
        responses: { '200': page('Workspace'), ...common },
      },
      post: {
        summary: 'Create a workspace (caller becomes owner)',
        requestBody: json('WorkspaceInput'),
        responses: { '201': one('Workspace', 'Created'), ...write },
      },
    },
    '/api/v1/workspaces/{workspace_id}': {
      parameters: [id('workspace_id')],
      get: {
        summary: 'Workspace with the caller role and members',
        responses: { '200': one('Workspace'), ...common },
      },
      put: {
        summary: 'Update (owner, admin)',
        requestBody: json('WorkspaceInput'),
        responses: { '200': one('Workspace'), ...write },
      },
      delete: { summary: 'Delete (owner)', responses: { '204': { description: 'Deleted' }, ...write } },
    },
    '/api/v1/workspaces/{workspace_id}/members': {
      parameters: [id('workspace_id')],
      get: { summary: 'Members', parameters: pageParams, responses: { '200': page('Member'), ...common } },
      post: {
        summary: 'Add a member (201) or change a role (200); unknown user or last owner 422',
        requestBody: json('MemberInput'),
        responses: { '201': one('Member', 'Added'), '200': one('Member', 'Role changed'), ...write },
      },
    },
    '/api/v1/workspaces/{workspace_id}/members/{user_id}': {
      parameters: [id('workspace_id'), id('user_id')],
      delete: {
        summary: 'Remove a member (last owner 422)',
        responses: { '204': { description: 'Removed' }, ...write },
      },
    },
    '/api/v1/workspaces/{workspace_id}/projects': {
      parameters: [id('workspace_id')],
      get: { summary: 'Projects', parameters: pageParams, responses: { '200': page('Project'), ...common } },
      post: {
        summary: 'Create a project',
        requestBody: json('ProjectInput'),
        responses: { '201': one('Project', 'Created'), ...write },
      },
    },
    '/api/v1/workspaces/{workspace_id}/projects/{project_id}/publish': {
      parameters: [id('workspace_id'), id('project_id')],
      post: {
        summary: 'Publish with publication settings',
        requestBody: json('PublicationSettings'),
        responses: { '200': one('Project'), ...write },
      },
    },
    '/api/v1/projects/{project_id}': {
      parameters: [id('project_id')],
      get: {
        summary: 'Project (also to non-members of a public form)',
        responses: { '200': one('Project'), ...common },
      },
      put: {
        summary: 'Update',
        requestBody: json('ProjectInput'),
        responses: { '200': one('Project'), ...write },
      },
      delete: {
        summary: 'Delete (owner, admin)',
        responses: { '204': { description: 'Deleted' }, ...write },
      },
    },
    '/api/v1/projects/{project_id}/stats': {
      parameters: [id('project_id')],
      get: {
        summary: 'Totals per status, per day, per collector, last submission time',
        responses: { '200': one('Stats'), ...write },
      },
    },
    '/api/v1/projects/{project_id}/publish': {
      parameters: [id('project_id')],
      post: {
        summary: 'Publish (optional settings body; needs a published version)',
        requestBody: { ...json('PublicationSettings'), required: false },
        responses: { '200': one('Project'), ...write },
      },
    },
    '/api/v1/projects/{project_id}/unpublish': {
      parameters: [id('project_id')],
      post: { summary: 'Unpublish', responses: { '200': one('Project'), ...write } },
    },
    '/api/v1/projects/{project_id}/versions': {
      parameters: [id('project_id')],
      get: {
        summary: 'Form versions, newest first',
        parameters: pageParams,
        responses: { '200': page('Version'), ...common },
      },
      post: {
        summary: 'New draft version, optionally a copy of the last published one',
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: { type: 'object', properties: { copy_last_published: { type: 'boolean' } } },
            },
          },
        },
        responses: { '201': one('Version', 'Created'), ...write },
      },
    },
    '/api/v1/versions/{version_id}': {
      parameters: [id('version_id')],
      get: { summary: 'Version with its fields', responses: { '200': one('Version'), ...common } },
    },
    '/api/v1/versions/{version_id}/fields': {
      parameters: [id('version_id')],
      get: {
        summary: 'Fields in form order',
        parameters: pageParams,
        responses: { '200': page('Field'), ...common },
      },
      post: {
        summary: 'Add a field (drafts only: 409 otherwise)',
        requestBody: json('FieldInput'),
        responses: { '201': one('Field', 'Created'), '409': err('Version published (frozen)'), ...write },
      },
    },
    '/api/v1/versions/{version_id}/fields/{field_id}': {
      parameters: [id('version_id'), id('field_id')],
      put: {
        summary: 'Update a field (drafts only)',
        requestBody: json('FieldInput'),
        responses: { '200': one('Field'), '409': err('Version published (frozen)'), ...write },
      },
      delete: {
        summary: 'Delete a field (drafts only)',
        responses: { '204': { description: 'Deleted' }, '409': err('Version published (frozen)'), ...write },
      },
    },
    '/api/v1/versions/{version_id}/publish': {
      parameters: [id('version_id')],
      post: {
        summary: 'Publish (freeze) a version; it becomes the current form',
        responses: { '200': one('Version'), '409': err('Already published'), ...write },
      },
    },
    '/api/v1/projects/{project_id}/submissions': {
      parameters: [id('project_id')],
      get: {
        summary: 'Submissions, newest first (collectors see their own)',
        parameters: [
          ...pageParams,
          { name: 'status', in: 'query', schema: schemaRef('Status') },
          {
            name: 'date_from',
            in: 'query',
            schema: { type: 'string', format: 'date' },
            description: 'inclusive UTC day',
          },
          {
            name: 'date_to',
            in: 'query',
            schema: { type: 'string', format: 'date' },
            description: 'inclusive UTC day',
          },
          { name: 'collector_id', in: 'query', schema: { type: 'integer' } },
          {
            name: 'search',
            in: 'query',
            schema: { type: 'string' },
            description: 'words of text and choice values (word prefixes, all required)',
          },
        ],
        responses: { '200': page('Submission'), ...write },
      },
      post: {
        summary: 'Submit data (JSON, or multipart: `submission` JSON part + photo files named by field uuid)',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schemaRef('SubmissionInput') },
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { submission: { type: 'string', description: 'JSON of SubmissionInput' } },
                additionalProperties: { type: 'string', format: 'binary' },
              },
            },
          },
        },
        responses: { '201': one('Submission', 'Created'), '413': err('Photo too large'), ...write },
      },
    },
    '/api/v1/projects/{project_id}/submissions/{submission_id}': {
      parameters: [id('project_id'), id('submission_id')],
      get: {
        summary: 'Submission with its status history',
        responses: { '200': one('Submission'), ...common },
      },
      put: {
        summary: 'Change status (transition table) and/or data',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  status: schemaRef('Status'),
                  comment: { type: 'string' },
                  data: { type: 'array', items: schemaRef('DataEntry') },
                },
              },
            },
          },
        },
        responses: { '200': one('Submission'), ...write },
      },
    },
    '/api/v1/projects/{project_id}/submissions/export': {
      post: {
        summary: 'Queue an export of the submissions (CSV, xlsx, GeoJSON), with the list filters',
        parameters: [id('project_id')],
        requestBody: json('ExportRequest'),
        responses: {
          202: {
            description: 'Queued (spec 2.1 export response)',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    status: { type: 'string', enum: ['success'] },
                    data: {
                      type: 'object',
                      properties: { job_id: { type: 'string', format: 'uuid' }, message: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
          401: err('Not signed in'),
          403: err('Role may not see every submission'),
          404: err('Unknown project or not a member'),
          422: err('Bad format or filters (errors keyed filters.<name>)'),
        },
      },
    },
    '/api/v1/exports/{job_id}': {
      get: {
        summary: 'Status of an export: requester and workspace owners, admins, managers',
        parameters: [
          { name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        responses: { 200: one('ExportJob'), 401: err('Not signed in'), 404: err('Unknown or not visible') },
      },
    },
    '/api/v1/exports/{job_id}/download': {
      get: {
        summary: 'The export file (text/csv attachment)',
        parameters: [
          { name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        responses: {
          200: {
            description: 'The file',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: { type: 'string', format: 'binary' },
              },
              'application/geo+json': { schema: { type: 'object' } },
            },
          },
          401: err('Not signed in'),
          404: err('Unknown or not visible'),
          409: err('Not completed (export_not_ready)'),
          410: err('File expired and deleted (export_expired)'),
        },
      },
    },
    '/api/v1/projects/{project_id}/analyses': {
      get: {
        summary: 'Analyses of a project (owner, admin, manager, viewer)',
        parameters: [id('project_id'), ...pageParams],
        responses: { 200: page('Analysis'), 403: err('Role may not view stats'), 404: err('Not found') },
      },
      post: {
        summary: 'Create an analysis with charts (owner, admin, manager)',
        parameters: [id('project_id')],
        requestBody: json('AnalysisInput'),
        responses: {
          201: one('Analysis', 'Created'),
          403: err('Role may not manage the project'),
          404: err('Not found'),
          422: err('Bad chart, field or filters (errors keyed charts.<i>.<key>)'),
        },
      },
    },
    '/api/v1/analyses/{analysis_id}': {
      get: {
        summary: 'An analysis',
        parameters: [id('analysis_id')],
        responses: { 200: one('Analysis'), 404: err('Not found') },
      },
      delete: {
        summary: 'Delete an analysis (owner, admin, manager)',
        parameters: [id('analysis_id')],
        responses: {
          204: { description: 'Deleted' },
          403: err('Role may not manage'),
          404: err('Not found'),
        },
      },
    },
    '/api/v1/analyses/{analysis_id}/charts': {
      get: {
        summary: 'Every chart: rows aggregated in SQL, Vega-Lite specification, URL of its SVG',
        parameters: [id('analysis_id')],
        responses: {
          200: {
            description: 'Charts',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          index: { type: 'integer' },
                          chart: schemaRef('Chart'),
                          data: { type: 'array', items: { type: 'object' } },
                          vega_lite: { type: 'object' },
                          svg_url: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          404: err('Not found'),
        },
      },
    },
    '/api/v1/analyses/{analysis_id}/charts/{index}.svg': {
      get: {
        summary: 'A chart rendered as SVG on the server',
        parameters: [
          id('analysis_id'),
          { name: 'index', in: 'path', required: true, schema: { type: 'integer' } },
        ],
        responses: {
          200: { description: 'SVG', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
          404: err('Not found'),
        },
      },
    },
    '/api/v1/sync': {
      post: {
        summary: 'Offline synchronisation: a batch of at most 500 items, each with its own result',
        description:
          'Each item is identified by (caller, device_id, local_id) and names its project through form_version_id. ' +
          'Same client_updated_at as stored: unchanged; older: conflict with the server version; newer: updated ' +
          '(when the submission may still be edited). Items are validated like submissions. docs/collection.md, ' +
          '"Offline synchronisation".',
        requestBody: json('SyncRequest'),
        responses: {
          200: {
            description: 'One result per item, in order, and the server time for the next sync',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: {
                      type: 'object',
                      properties: {
                        server_time: { type: 'string', format: 'date-time' },
                        device_id: { type: 'string' },
                        results: { type: 'array', items: schemaRef('SyncResult') },
                      },
                    },
                  },
                },
              },
            },
          },
          401: err('Not signed in'),
          413: err('More than 500 items (code sync_batch_too_large)'),
          422: err('Bad envelope (device_id, submissions)'),
        },
      },
    },
    '/api/v1/photos/{photo_id}': {
      parameters: [
        { name: 'photo_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
      ],
      get: {
        summary: 'Photo bytes (sniffed content type)',
        responses: { '200': { description: 'Image', content: { 'image/*': {} } }, ...common },
      },
    },
  },
  components: {
    schemas: {
      ...sharedOpenApiSchemas,
      Role: { type: 'string', enum: [...ROLES] },
      Status: { type: 'string', enum: [...STATUSES] },
      WorkspaceInput: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, description: nullable('string') },
      },
      Workspace: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          description: nullable('string'),
          role: schemaRef('Role'),
          members: { type: 'array', items: schemaRef('Member') },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
      MemberInput: {
        type: 'object',
        required: ['role'],
        properties: {
          user_id: { type: 'integer' },
          email: { type: 'string' },
          role: schemaRef('Role'),
        },
      },
      Member: {
        type: 'object',
        properties: {
          user_id: { type: 'integer' },
          name: { type: 'string' },
          email: { type: 'string' },
          role: schemaRef('Role'),
          joined_at: { type: 'string', format: 'date-time' },
        },
      },
      ProjectInput: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, description: nullable('string') },
      },
      PublicationSettings: {
        type: 'object',
        properties: {
          collect_access: { type: 'string', enum: ['public', 'authenticated', 'members'] },
          submission_limit: { type: ['integer', 'null'], minimum: 1 },
          collect_starts_at: { type: ['string', 'null'], format: 'date-time' },
          collect_expires_at: { type: ['string', 'null'], format: 'date-time' },
          allow_multiple_submissions: { type: 'boolean' },
          allow_edits: { type: 'boolean' },
          require_consent: { type: 'boolean' },
          consent_text: nullable('string'),
          notify_on_submission: { type: 'boolean' },
          notification_emails: { type: 'array', items: { type: 'string', format: 'email' } },
        },
      },
      Project: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          workspace_id: { type: 'integer' },
          name: { type: 'string' },
          description: nullable('string'),
          is_published: { type: 'boolean' },
          published_at: { type: ['string', 'null'], format: 'date-time' },
          current_version_id: nullable('integer'),
          require_consent: { type: 'boolean' },
          consent_text: nullable('string'),
          settings: schemaRef('PublicationSettings'),
        },
      },
      Version: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          project_id: { type: 'integer' },
          number: { type: 'integer' },
          status: { type: 'string', enum: ['draft', 'published'] },
          field_count: { type: 'integer' },
          copied_from_version_id: nullable('integer'),
          published_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      FieldInput: {
        type: 'object',
        required: ['name', 'label', 'type'],
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          label: { type: 'string' },
          type: {
            type: 'string',
            enum: [...FIELD_TYPES],
          },
          required: { type: 'boolean' },
          choices: {
            type: ['array', 'null'],
            description:
              'The options of `select_one` and `select_multiple` fields; `null` for every other type ' +
              '(and accepted as "no choices" in a request).',
            items: { type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' } } },
          },
          constraints: {
            type: 'object',
            properties: {
              min: { type: 'number' },
              max: { type: 'number' },
              max_length: { type: 'integer' },
              pattern: { type: 'string' },
            },
          },
        },
      },
      Field: {
        allOf: [
          schemaRef('FieldInput'),
          {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              uuid: { type: 'string', format: 'uuid' },
              version_id: { type: 'integer' },
            },
          },
        ],
      },
      ExportRequest: {
        type: 'object',
        required: ['format'],
        properties: {
          format: { type: 'string', enum: [...EXPORT_FORMATS] },
          filters: {
            type: 'object',
            properties: {
              status: schemaRef('Status'),
              date_from: { type: 'string', format: 'date' },
              date_to: { type: 'string', format: 'date' },
              collector_id: { type: 'integer' },
              search: { type: 'string' },
            },
          },
          options: schemaRef('ExportOptions'),
        },
      },
      ExportOptions: {
        type: 'object',
        description: 'docs/collection.md, "Exports"',
        properties: {
          header: {
            type: 'string',
            enum: [...EXPORT_HEADERS],
            default: 'names',
            description: 'header row of field names or of field labels',
          },
          choice_columns: {
            type: 'boolean',
            default: false,
            description:
              'after each select_multiple column, one `<name>/<choice>` column per choice: 1 chosen, 0 not, empty unanswered',
          },
          formula_escaping: {
            type: 'boolean',
            default: true,
            description:
              "CSV only: a text cell (header included) starting with = + - @ tab, carriage return or their full-width forms gets a leading ' so spreadsheets show it as text, not run it as a formula (OWASP CSV injection); plain numbers such as -5 are never changed. false writes every value exactly as stored, for pipelines that need raw text. xlsx text cells are always typed inline strings (never formulas) and GeoJSON is JSON: neither is altered.",
          },
        },
      },
      ExportJob: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          project_id: { type: 'integer' },
          format: { type: 'string', enum: [...EXPORT_FORMATS] },
          filters: { type: 'object' },
          options: schemaRef('ExportOptions'),
          status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed'] },
          rows_written: { type: 'integer' },
          total_rows: { type: ['integer', 'null'] },
          progress: { type: 'number', minimum: 0, maximum: 1 },
          error: { type: ['string', 'null'] },
          requested_by: { type: 'integer' },
          created_at: { type: 'string', format: 'date-time' },
          started_at: { type: ['string', 'null'], format: 'date-time' },
          finished_at: { type: ['string', 'null'], format: 'date-time' },
          expires_at: { type: ['string', 'null'], format: 'date-time' },
          expired: { type: 'boolean' },
          download_url: { type: ['string', 'null'] },
        },
      },
      Chart: {
        type: 'object',
        required: ['title', 'kind'],
        properties: {
          title: { type: 'string' },
          kind: { type: 'string', enum: ['choice_counts', 'histogram', 'over_time', 'map', 'status'] },
          field: {
            type: 'string',
            description: 'field name (see docs/collection.md for the types per kind)',
          },
          split_by: { type: 'string', description: 'a select_one field (choice_counts, over_time)' },
          bins: { type: 'integer', minimum: 1, maximum: 100 },
        },
      },
      AnalysisInput: {
        type: 'object',
        required: ['name', 'charts'],
        properties: {
          name: { type: 'string' },
          description: { type: ['string', 'null'] },
          filters: { $ref: '#/components/schemas/ExportRequest/properties/filters' },
          charts: { type: 'array', minItems: 1, maxItems: 50, items: schemaRef('Chart') },
        },
      },
      Analysis: {
        allOf: [
          schemaRef('AnalysisInput'),
          {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              project_id: { type: 'integer' },
              created_by: { type: 'integer' },
              created_at: { type: 'string', format: 'date-time' },
              updated_at: { type: 'string', format: 'date-time' },
            },
          },
        ],
      },
      SyncRequest: {
        type: 'object',
        required: ['device_id', 'submissions'],
        properties: {
          device_id: { type: 'string', maxLength: 200 },
          submissions: {
            type: 'array',
            maxItems: 500,
            items: {
              type: 'object',
              required: ['local_id', 'form_version_id', 'client_updated_at', 'data'],
              properties: {
                local_id: { type: 'string', maxLength: 200 },
                form_version_id: { type: 'integer' },
                client_updated_at: { type: 'string', format: 'date-time', description: 'UTC, ending in Z' },
                data: { type: 'array', items: schemaRef('DataEntry') },
                status: { type: 'string', enum: ['submitted', 'draft'] },
                consent: { type: 'boolean' },
                latitude: { type: ['number', 'null'] },
                longitude: { type: ['number', 'null'] },
                altitude: { type: ['number', 'null'] },
                precision: { type: ['number', 'null'] },
              },
            },
          },
        },
      },
      SyncResult: {
        type: 'object',
        properties: {
          local_id: { type: ['string', 'null'] },
          id: { type: ['integer', 'null'], description: 'server id of the submission' },
          status: { type: 'string', enum: ['created', 'updated', 'unchanged', 'conflict', 'rejected'] },
          client_updated_at: { type: 'string', format: 'date-time' },
          code: { type: 'string' },
          message: { type: 'string' },
          errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          server: schemaRef('Submission'),
        },
      },
      DataEntry: {
        type: 'object',
        required: ['field_uuid', 'type'],
        properties: { field_uuid: { type: 'string', format: 'uuid' }, type: { type: 'string' }, value: {} },
      },
      SubmissionInput: {
        type: 'object',
        required: ['form_version_id', 'data'],
        properties: {
          form_version_id: { type: 'integer' },
          latitude: { type: 'number', minimum: -90, maximum: 90 },
          longitude: { type: 'number', minimum: -180, maximum: 180 },
          altitude: { type: 'number' },
          precision: { type: 'number', minimum: 0 },
          status: { type: 'string', enum: ['submitted', 'draft'] },
          consent: { type: 'boolean', description: 'required true when the project requires consent' },
          data: { type: 'array', items: schemaRef('DataEntry') },
        },
      },
      Submission: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          project_id: { type: 'integer' },
          form_version_id: { type: 'integer' },
          collector_id: nullable('integer'),
          status: schemaRef('Status'),
          data: { type: 'array', items: schemaRef('DataEntry') },
          history: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                from_status: nullable('string'),
                to_status: { type: 'string' },
                user_id: nullable('integer'),
                comment: nullable('string'),
                created_at: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
      Stats: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          by_status: { type: 'object', additionalProperties: { type: 'integer' } },
          by_day: {
            type: 'array',
            items: {
              type: 'object',
              properties: { date: { type: 'string', format: 'date' }, count: { type: 'integer' } },
            },
          },
          by_collector: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                collector_id: nullable('integer'),
                name: nullable('string'),
                count: { type: 'integer' },
              },
            },
          },
          last_submission_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
    },
  },
} as const;
