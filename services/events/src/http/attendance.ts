import { Router, type Request } from 'express';
import { joiErrors, notFound, ProblemError, problemBody, validate } from '@fieldhouse/problem';
import { checkIn, oncePerNonce, setPresence, statsOf, type Scanner } from '../data/attendance.ts';
import { scanGroupCommit } from '../data/scan-batch.ts';
import { checkinAnswer, type CheckinAnswer } from '../domain/checkin.ts';
import { normalizeCode } from '../domain/codes.ts';
import { presenceMessage } from '../domain/presence.ts';
import { isUuid } from '@fieldhouse/http';
import { eventOf } from './access.ts';
import type { EventsContext } from './context.ts';
import { batchSchema, presenceSchema, scanContext, scanSchema } from './schemas.ts';

interface Scan {
  code_unique: string;
  nonce?: string;
  scanned_at?: Date;
  device?: string;
  scanne_par?: string;
}

/** The scanner of a request: `scanne_par` as given, else the caller's name; device from the body or User-Agent. */
function scannerOf(
  req: Request,
  given: { scanne_par?: string; device?: string; scanned_at?: Date },
): Scanner {
  return {
    scanne_par: given.scanne_par || req.caller.name || req.caller.email,
    userId: req.caller.userId!,
    userName: req.caller.name,
    device: given.device ?? req.get('user-agent')?.slice(0, 255) ?? null,
    scannedAt: given.scanned_at ?? null,
  };
}

/** Presence, scans (single and offline batch) and statistics of an event. */
export function attendanceRoutes(ctx: EventsContext): Router {
  const r = Router();
  const hotScans = scanGroupCommit(ctx.db, ctx.logger);

  /** One scan, once per nonce when a nonce is given. */
  const scan = async (
    req: Request,
    eventId: string,
    s: Scan,
  ): Promise<CheckinAnswer & { replayed: boolean }> => {
    const code = normalizeCode(s.code_unique)!;
    const by = scannerOf(req, s);
    if (!s.nonce)
      return { ...checkinAnswer(await checkIn(ctx.db, eventId, code, by, null)), replayed: false };
    return oncePerNonce(ctx.db, eventId, s.nonce, async (trx) =>
      checkinAnswer(await checkIn(trx, eventId, code, by, s.nonce!)),
    );
  };

  /**
   * PUT /api/events/{event_id}/invites/{invite_id}/presence `{presence, scanne_par, device?,
   * scanned_at?}` (spec 2.3, 3): 200 `{success: true, message}`; the message names the invitee
   * as present (or absent). Every call is kept in the history. Owner and staff. 404 unknown
   * invite; 409 problem `revoked` when marking a revoked invite present; 422 bad body.
   */
  r.put('/api/events/:event_id/invites/:invite_id/presence', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    const inviteId = req.params.invite_id;
    if (!isUuid(inviteId)) throw notFound('No invite with this id in this event.');
    const body = validate(presenceSchema, req.body, scanContext()) as {
      presence: boolean;
      scanne_par?: string;
      device?: string;
      scanned_at?: Date;
    };
    const done = await setPresence(ctx.db, event.id, inviteId, body.presence, scannerOf(req, body));
    if (!done) throw notFound('No invite with this id in this event.');
    if (done === 'revoked')
      throw new ProblemError(409, 'This invite was revoked: it cannot be marked present.', {
        code: 'revoked',
      });
    res.json({ success: true, message: presenceMessage(done.nom, body.presence, done.previous) });
  });

  /**
   * POST /api/events/{event_id}/checkin `{code_unique, nonce?, scanned_at?, device?, scanne_par?}`:
   * 200 `{result: "checked_in", message, invite, checked_in_at, scanne_par}`; problems 409
   * `already_checked_in` (with `checked_in_at`, `scanne_par`), 404 `unknown_code`, 422
   * `wrong_event`, 409 `revoked`, 422 bad body. A repeated nonce answers the first answer again
   * with `Idempotent-Replayed: true` and changes nothing. Owner and staff.
   */
  r.post('/api/events/:event_id/checkin', async (req, res) => {
    // Hot path: a well-formed scan without nonce by owner or staff is one statement (access
    // check and check-in together), group-committed with the scans arriving meanwhile.
    // Anything else, including every refusal, takes the full path.
    const eventId = req.params.event_id;
    const quick = scanSchema.validate(req.body ?? {}, scanContext());
    if (!quick.error && !(quick.value as Scan).nonce && isUuid(eventId)) {
      const s = quick.value as Scan;
      const code = normalizeCode(s.code_unique);
      const done =
        code &&
        (await hotScans.submit({ eventId, code, by: scannerOf(req, s), staffUserId: req.caller.userId! }));
      if (done) {
        const answer = checkinAnswer(done);
        res.status(answer.status).json(answer.body);
        return;
      }
    }
    const { event } = await eventOf(ctx, req);
    const body = validate(scanSchema, req.body, scanContext()) as Scan;
    if (!normalizeCode(body.code_unique))
      throw new ProblemError(422, 'code_unique is empty.', {
        code: 'validation_failed',
        errors: { code_unique: ['code_unique is empty'] },
      });
    const answer = await scan(req, event.id, body);
    if (answer.replayed) res.set('Idempotent-Replayed', 'true');
    res
      .status(answer.status)
      .type(answer.status === 200 ? 'application/json' : 'application/problem+json')
      .send(JSON.stringify(answer.body));
  });

  /**
   * POST /api/events/{event_id}/checkin/batch `{scans: [scan...], device?}` (1 to 500 offline
   * scans, applied in order): 200 `{results: [{index, nonce, status, replayed, ...body}]}` where
   * `status` and the body are what the single endpoint would answer for that scan (`result`
   * names the outcome; an invalid item gets status 422 with `errors`). One bad scan never fails
   * the others. Owner and staff.
   */
  r.post('/api/events/:event_id/checkin/batch', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    const body = validate(batchSchema, req.body) as { scans: unknown[]; device?: string };
    const results = [];
    for (const [index, item] of body.scans.entries()) {
      const { value, error } = scanSchema.validate(item ?? {}, {
        abortEarly: false,
        stripUnknown: true,
        ...scanContext(),
      });
      const nonce = (value as Scan | undefined)?.nonce ?? null;
      if (error || !normalizeCode((value as Scan).code_unique)) {
        const errors = error ? joiErrors(error) : { code_unique: ['code_unique is empty'] };
        results.push({
          index,
          nonce,
          replayed: false,
          ...problemBody(422, 'This scan is invalid.', { code: 'validation_failed', errors }),
          result: 'invalid',
        });
        continue;
      }
      const answer = await scan(req, event.id, {
        ...(body.device ? { device: body.device } : {}),
        ...(value as Scan),
      });
      results.push({ index, nonce, replayed: answer.replayed, ...answer.body, status: answer.status });
    }
    res.json({ results });
  });

  /**
   * GET /api/events/{event_id}/stats (spec 4.3): `{total, present, absent, taux}` over the active
   * (non-revoked) invites; `taux` = floor(100 * present / total), 0 without invites. Owner and staff.
   */
  r.get('/api/events/:event_id/stats', async (req, res) => {
    const { event } = await eventOf(ctx, req);
    res.json(await statsOf(ctx.db, event.id));
  });

  return r;
}
