import { Router, type Request, type Response } from 'express';
import { parsePageQuery, paginated } from '@fieldhouse/http';
import { notFound, validate } from '@fieldhouse/problem';
import { inviteHistory } from '../data/attendance.ts';
import {
  deleteInvite,
  EmailTakenError,
  findInvite,
  listInvites,
  updateInvite,
  type Invite,
  type InviteFilter,
} from '../data/invites.ts';
import { DEFAULT_INVITE_TYPE } from '../domain/invite-types.ts';
import { qrPng, qrSvg } from '../domain/qr.ts';
import { isUuid } from '@fieldhouse/http';
import { eventOf, ownedEventOf } from './access.ts';
import type { EventsContext } from './context.ts';
import { createInvite, emailTakenProblem } from './invite-create.ts';
import { createInviteSchema, listInvitesSchema, updateInviteSchema } from './schemas.ts';

/** The invite named by `:invite_id` in the event, or a 404 problem. */
async function inviteOf(ctx: EventsContext, eventId: string, req: Request): Promise<Invite> {
  const id = req.params.invite_id;
  const invite = isUuid(id) ? await findInvite(ctx.db, eventId, id) : undefined;
  if (!invite) throw notFound('No invite with this id in this event.');
  return invite;
}

/** Invites of an event: create (spec 4.3), list, detail, update, delete, history, QR codes. */
export function inviteRoutes(ctx: EventsContext): Router {
  const r = Router();

  /**
   * POST /api/events/{event_id}/invites `{nom, email, type_invite?}` (spec 4.3): 201 with exactly
   * `{id, nom, code_unique}`; the invitation e-mail with the QR code is queued. Owner only.
   * 422 on an invalid field, an unknown `type_invite`, or an e-mail already invited (`email_taken`).
   */
  r.post('/api/events/:event_id/invites', async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    const body = validate(createInviteSchema, req.body);
    const invite = await createInvite(ctx, event, {
      ...body,
      type_invite: body.type_invite ?? DEFAULT_INVITE_TYPE,
    });
    res.status(201).json({ id: invite.id, nom: invite.nom, code_unique: invite.code_unique });
  });

  /**
   * GET /api/events/{event_id}/invites?page&per_page&search&type_invite&presence&revoked: the
   * pagination envelope of spec 2.1 of invites ordered by `nom`. `search` matches part of the
   * name or e-mail (case-insensitive) or a whole code. Owner and staff.
   */
  r.get('/api/events/:event_id/invites', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    const page = parsePageQuery(req.query);
    const filter = validate(listInvitesSchema, req.query) as InviteFilter;
    const { data, total } = await listInvites(ctx.db, event.id, filter, page);
    res.json(paginated(data, page, total));
  });

  /** GET /api/events/{event_id}/invites/{invite_id}: the invite. Owner and staff; 404 otherwise. */
  r.get('/api/events/:event_id/invites/:invite_id', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    res.json(await inviteOf(ctx, event.id, req));
  });

  /**
   * PUT or PATCH /api/events/{event_id}/invites/{invite_id} `{nom?, email?, type_invite?, revoked?}`:
   * 200 with the invite. `revoked: true` revokes it (check-ins then answer `revoked`). Owner only.
   * 422 on invalid fields or `email_taken`.
   */
  const update = async (req: Request, res: Response) => {
    const event = await ownedEventOf(ctx, req);
    const { id } = await inviteOf(ctx, event.id, req);
    const patch = validate(updateInviteSchema, req.body);
    try {
      res.json(await updateInvite(ctx.db, event.id, id, patch));
    } catch (err) {
      if (err instanceof EmailTakenError) throw emailTakenProblem();
      throw err;
    }
  };
  r.put('/api/events/:event_id/invites/:invite_id', update);
  r.patch('/api/events/:event_id/invites/:invite_id', update);

  /** DELETE /api/events/{event_id}/invites/{invite_id}: 204; its code becomes unknown. Owner only. */
  r.delete('/api/events/:event_id/invites/:invite_id', async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    const { id } = await inviteOf(ctx, event.id, req);
    await deleteInvite(ctx.db, event.id, id);
    res.status(204).end();
  });

  /** GET .../invites/{invite_id}/history: every presence change, oldest first. Owner and staff. */
  r.get('/api/events/:event_id/invites/:invite_id/history', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    const invite = await inviteOf(ctx, event.id, req);
    res.json(await inviteHistory(ctx.db, invite.id));
  });

  /** GET .../invites/{invite_id}/qr.png: the QR code of `code_unique`, `image/png`. Owner and staff. */
  r.get('/api/events/:event_id/invites/:invite_id/qr.png', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    const invite = await inviteOf(ctx, event.id, req);
    res
      .type('image/png')
      .set('Cache-Control', 'private, max-age=300')
      .send(await qrPng(invite.code_unique));
  });

  /** GET .../invites/{invite_id}/qr.svg: the QR code of `code_unique`, `image/svg+xml`. Owner and staff. */
  r.get('/api/events/:event_id/invites/:invite_id/qr.svg', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    const invite = await inviteOf(ctx, event.id, req);
    res
      .type('image/svg+xml')
      .set('Cache-Control', 'private, max-age=300')
      .send(await qrSvg(invite.code_unique));
  });

  return r;
}
