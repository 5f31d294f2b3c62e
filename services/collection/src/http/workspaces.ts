import { Router } from 'express';
import Joi from 'joi';
import { idParam, idSchema, paginated, parsePageQuery } from '@fieldhouse/http';
import { forbidden, notFound, unprocessable, validate, validationFailed } from '@fieldhouse/problem';
import { mayManageRole, ROLES, type Role } from '../domain/roles.ts';
import {
  createWorkspace,
  deleteWorkspace,
  listMembers,
  listWorkspaces,
  memberJson,
  removeMember,
  setMember,
  updateWorkspace,
  workspaceJson,
} from '../data/workspaces.ts';
import { findUserByEmail, findUserById } from '../data/users.ts';
import { userIdOf, workspaceFor } from './access.ts';
import type { CollectionContext } from './context.ts';

const workspaceBody = Joi.object({
  name: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
});
const workspacePatch = workspaceBody.fork(['name'], (s) => s.optional());
const memberBody = Joi.object({
  user_id: idSchema(),
  email: Joi.string().email({ tlds: false }).max(254),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
}).xor('user_id', 'email');

/** Workspaces and members (spec 4.1 "Workspaces"; roles in docs/collection.md). */
export function workspaceRoutes(ctx: CollectionContext): Router {
  const r = Router();

  /** GET /workspaces: the caller's workspaces (pagination envelope), each with the caller's `role`. */
  r.get('/api/v1/workspaces', async (req, res) => {
    const userId = userIdOf(req);
    const page = parsePageQuery(req.query);
    const { rows, total } = await listWorkspaces(ctx.db, userId, page.page, page.per_page);
    res.json(
      paginated(
        rows.map((w) => workspaceJson(w, w.role)),
        page,
        total,
      ),
    );
  });

  /** POST /workspaces `{name, description?}`: 201 with the workspace; the caller becomes its owner. */
  r.post('/api/v1/workspaces', async (req, res) => {
    const userId = userIdOf(req);
    const body = validate(workspaceBody, req.body);
    const w = await createWorkspace(ctx.db, body, userId);
    res.status(201).json({ data: workspaceJson(w, 'owner', await listMembers(ctx.db, w.id)) });
  });

  /** GET /workspaces/{id}: the workspace with the caller's role and its members; 404 to non-members. */
  r.get('/api/v1/workspaces/:workspaceId', async (req, res) => {
    const { workspace, role } = await workspaceFor(ctx, req, idParam(req, 'workspaceId'), 'workspace.view');
    res.json({ data: workspaceJson(workspace, role, await listMembers(ctx.db, workspace.id)) });
  });

  /** PUT /workspaces/{id} `{name?, description?}`: owner or admin. */
  r.put('/api/v1/workspaces/:workspaceId', async (req, res) => {
    const { workspace, role } = await workspaceFor(ctx, req, idParam(req, 'workspaceId'), 'workspace.update');
    const body = validate(workspacePatch, req.body);
    const w = await updateWorkspace(ctx.db, workspace.id, body);
    res.json({ data: workspaceJson(w, role, await listMembers(ctx.db, w.id)) });
  });

  /** DELETE /workspaces/{id}: owner only; deletes its projects and submissions; 204. */
  r.delete('/api/v1/workspaces/:workspaceId', async (req, res) => {
    const { workspace } = await workspaceFor(ctx, req, idParam(req, 'workspaceId'), 'workspace.delete');
    await deleteWorkspace(ctx.db, workspace.id);
    res.status(204).end();
  });

  /** GET /workspaces/{id}/members: every member (pagination envelope; one page holds them all up to per_page). */
  r.get('/api/v1/workspaces/:workspaceId/members', async (req, res) => {
    const { workspace } = await workspaceFor(ctx, req, idParam(req, 'workspaceId'), 'workspace.view');
    const page = parsePageQuery(req.query);
    const all = await listMembers(ctx.db, workspace.id);
    const slice = all.slice((page.page - 1) * page.per_page, page.page * page.per_page);
    res.json(paginated(slice.map(memberJson), page, all.length));
  });

  /**
   * POST /workspaces/{id}/members `{user_id | email, role}`: adds a registered user (201) or
   * changes an existing member's role (200). Unknown user 422; only owners grant or change the
   * owner role (403); demoting the last owner 422.
   */
  r.post('/api/v1/workspaces/:workspaceId/members', async (req, res) => {
    const { workspace, role: actorRole } = await workspaceFor(
      ctx,
      req,
      idParam(req, 'workspaceId'),
      'members.manage',
    );
    const body = validate(memberBody, req.body) as { user_id?: number; email?: string; role: Role };
    const user = body.user_id
      ? await findUserById(ctx.db, body.user_id)
      : await findUserByEmail(ctx.db, body.email!);
    if (!user)
      throw unprocessable(
        body.user_id ? 'user_id' : 'email',
        'No registered user has this ' + (body.user_id ? 'id.' : 'e-mail address.'),
        { code: 'unknown_user' },
      );
    const members = await listMembers(ctx.db, workspace.id);
    const current = members.find((m) => m.user_id === user.id)?.role;
    if (!mayManageRole(actorRole, body.role) || (current && !mayManageRole(actorRole, current)))
      throw forbidden('Only an owner may grant, change or remove the owner role.');
    const outcome = await setMember(ctx.db, workspace.id, user.id, body.role);
    if (outcome === 'last_owner')
      throw validationFailed(
        { role: ['The last owner of a workspace cannot be demoted; make another member owner first.'] },
        { code: 'last_owner' },
      );
    const member = (await listMembers(ctx.db, workspace.id)).find((m) => m.user_id === user.id)!;
    res.status(outcome === 'created' ? 201 : 200).json({ data: memberJson(member) });
  });

  /** DELETE /workspaces/{id}/members/{user_id}: 204; 404 when not a member; last owner 422. */
  r.delete('/api/v1/workspaces/:workspaceId/members/:userId', async (req, res) => {
    const workspaceId = idParam(req, 'workspaceId');
    const targetId = idParam(req, 'userId');
    const self = targetId === req.caller.userId;
    // A member may always leave; removing others needs members.manage.
    const { workspace, role: actorRole } = await workspaceFor(
      ctx,
      req,
      workspaceId,
      self ? 'workspace.view' : 'members.manage',
    );
    const target = (await listMembers(ctx.db, workspace.id)).find((m) => m.user_id === targetId);
    if (!target) throw notFound('This user is not a member of the workspace.');
    if (!self && !mayManageRole(actorRole, target.role))
      throw forbidden('Only an owner may grant, change or remove the owner role.');
    const outcome = await removeMember(ctx.db, workspace.id, targetId);
    if (outcome === 'last_owner')
      throw validationFailed(
        { user_id: ['The last owner of a workspace cannot be removed; make another member owner first.'] },
        { code: 'last_owner' },
      );
    if (outcome === 'not_member') throw notFound('This user is not a member of the workspace.');
    res.status(204).end();
  });

  return r;
}
