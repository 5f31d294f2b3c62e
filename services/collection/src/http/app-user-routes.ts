import Joi from 'joi';
import { paginated, pageOf, pathId, pathIdParam } from '@fieldhouse/http';
import { authenticateAppUser, createAppUser, listAppUsers, revokeAppUser } from '../domain/app-users.ts';
import { dateTime, envelope, pageQuery } from './common-schemas.ts';
import { route } from './declare.ts';
import { publicOrigin } from './openrosa-xml.ts';
import { projectParams } from './submission-schemas.ts';

const tags = ['App users'];
const projectNotFound = 'Project not found.';

/** `{project_id}/app-users/{app_user_id}`. */
const appUserParams = Joi.object<{ project_id: number; app_user_id: number }>({
  project_id: pathIdParam(),
  app_user_id: pathIdParam(),
});

/** Body of `POST /projects/{project_id}/app-users`. */
const createBody = Joi.object<{ display_name: string }>({
  display_name: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .required()
    .description('Who uses it: a person or a phone'),
});

/** An app user (docs/collection.md, "ODK Collect and Enketo"); never its key. */
const appUserSchema = Joi.object({
  id: Joi.number().integer().required(),
  display_name: Joi.string().required(),
  created_at: dateTime().required(),
  revoked_at: dateTime().allow(null).required().description('When it was revoked; null while it works'),
}).id('AppUser');

/** The create answer: the app user with its key and server address, shown this once. */
const createdSchema = appUserSchema
  .keys({
    token: Joi.string()
      .required()
      .description('The key, shown only in this answer (only its SHA-256 is stored)'),
    server_url: Joi.string()
      .required()
      .description(
        '`<public origin>/api/v1/key/{token}/projects/{project_id}`: the address ODK Collect is set up with',
      ),
  })
  .id('CreatedAppUser');

/** Body of the gateway's `POST /app-users/authenticate`. */
const authenticateBody = Joi.object<{ key: string }>({ key: Joi.string().max(200).required() });

/**
 * App users of a project (ODK Central's): create (the key shown once), list, revoke; and the
 * gateway's own lookup of a key.
 */
export const appUserRoutes = [
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/app-users',
    operationId: 'createAppUser',
    summary:
      'A new app user for ODK Collect or Enketo, with its key and server address (owner, admin, manager)',
    description:
      'Answers the key (`token`) and `server_url` once: only the SHA-256 of the key is kept. The app user may ' +
      'download the project’s published form and send submissions to it (OpenRosa), nothing else.',
    tags,
    params: projectParams,
    notFound: projectNotFound,
    body: createBody,
    parseBody: 'by-use-case',
    responses: { 201: { description: 'Created', body: envelope(createdSchema) } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown project, or the caller is not a member',
      422: 'No `display_name`, or longer than 100 characters',
    },
    handler: async ({ params, readBody }, ctx, req) => {
      const created = await createAppUser(ctx, {
        actor: req.caller,
        projectId: pathId(params.project_id, 'projectId'),
        readName: () => readBody().display_name,
        origin: publicOrigin(req, ctx.publicUrl),
      });
      return { status: 201, body: { data: created } };
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/projects/{project_id}/app-users',
    operationId: 'listAppUsers',
    summary: 'The project’s app users, revoked ones included, newest first (owner, admin, manager)',
    tags,
    params: projectParams,
    notFound: projectNotFound,
    query: pageQuery,
    parseQuery: 'by-use-case',
    responses: { 200: { description: 'Pagination envelope (spec 2.1)', body: pageOf(appUserSchema) } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown project, or the caller is not a member',
      422: 'Bad page or per_page',
    },
    handler: async ({ params, readQuery }, ctx, req) => {
      const all = await listAppUsers(ctx, {
        actor: req.caller,
        projectId: pathId(params.project_id, 'projectId'),
      });
      const { page, per_page } = readQuery();
      return { body: paginated(all.slice((page - 1) * per_page, page * per_page), readQuery(), all.length) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/projects/{project_id}/app-users/{app_user_id}/revoke',
    operationId: 'revokeAppUser',
    summary: 'Revoke an app user: its next request is refused (owner, admin, manager)',
    tags,
    params: appUserParams,
    notFound: 'No app user with this id in the project.',
    responses: { 200: { description: 'The revoked app user', body: envelope(appUserSchema) } },
    problems: {
      403: 'The role does not allow it',
      404: 'Unknown project or app user, or the caller is not a member',
    },
    handler: async ({ params }, ctx, req) => ({
      body: {
        data: await revokeAppUser(ctx, {
          actor: req.caller,
          projectId: pathId(params.project_id, 'projectId'),
          appUserId: pathId(params.app_user_id, 'appUserId'),
        }),
      },
    }),
  }),
  route({
    method: 'post',
    path: '/api/v1/app-users/authenticate',
    operationId: 'authenticateAppUser',
    summary: 'The gateway’s lookup of an app user key (internal: 404 to any other caller)',
    description:
      'Called by the gateway itself (`amr: gateway`) to authenticate the key in an OpenRosa path ' +
      '(docs/identity.md, "App users").',
    tags,
    body: authenticateBody,
    parseBody: 'by-use-case',
    responses: {
      200: {
        description: 'The key’s app user',
        body: Joi.object({
          id: Joi.number().integer().required(),
          project_id: Joi.number().integer().required(),
          display_name: Joi.string().required(),
        }),
      },
    },
    problems: {
      401: 'A malformed, unknown or revoked key (`app_user_revoked`)',
      404: 'Any caller but the gateway',
    },
    handler: async ({ readBody }, ctx, req) => ({
      body: await authenticateAppUser(ctx, { caller: req.caller, readKey: () => readBody().key }),
    }),
  }),
];
