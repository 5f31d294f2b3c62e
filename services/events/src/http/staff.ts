import { Router } from 'express';
import { idParam } from '@fieldhouse/http';
import { notFound, unprocessable, validate } from '@fieldhouse/problem';
import { grantStaff, listStaff, revokeStaff } from '../data/staff.ts';
import { findUserByEmail, findUserById } from '../data/users.ts';
import { ownedEventOf } from './access.ts';
import type { EventsContext } from './context.ts';
import { staffSchema } from './schemas.ts';

/** The check-in role: the owner lets other users see the event and its invites and scan codes. */
export function staffRoutes(ctx: EventsContext): Router {
  const r = Router();

  /** GET /api/events/{event_id}/staff: `[{user_id, name, email, granted_at}]`. Owner only (403 for staff). */
  r.get('/api/events/:event_id/staff', async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    res.json(await listStaff(ctx.db, event.id));
  });

  /**
   * POST /api/events/{event_id}/staff `{user_id}` or `{email}`: grants the check-in role; 201
   * with `{user_id, name, email, granted_at}` (idempotent). 422 when no known user matches (users
   * become known when the gateway announces them or when they first call this service), or when
   * it names the owner.
   */
  r.post('/api/events/:event_id/staff', async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    const body = validate(staffSchema, req.body) as { user_id?: number; email?: string };
    const user =
      body.user_id !== undefined
        ? await findUserById(ctx.db, body.user_id)
        : await findUserByEmail(ctx.db, body.email!);
    const field = body.user_id !== undefined ? 'user_id' : 'email';
    if (!user)
      throw unprocessable(field, `No user with this ${field === 'email' ? 'e-mail' : 'id'} is known.`);
    if (user.id === event.owner_id)
      throw unprocessable(field, 'The owner already has every right on the event.');
    await grantStaff(ctx.db, event.id, user.id, event.owner_id);
    const staff = (await listStaff(ctx.db, event.id)).find((s) => s.user_id === user.id);
    res.status(201).json(staff);
  });

  /** DELETE /api/events/{event_id}/staff/{user_id}: 204; 404 when that user is not staff. */
  r.delete('/api/events/:event_id/staff/:user_id', async (req, res) => {
    const event = await ownedEventOf(ctx, req);
    const userId = idParam(req, 'user_id');
    if (!(await revokeStaff(ctx.db, event.id, userId)))
      throw notFound('This user is not staff of the event.');
    res.status(204).end();
  });

  return r;
}
