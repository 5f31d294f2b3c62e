import type { Request } from 'express';
import type { Actor, ScanActor } from '../domain/context.ts';

/** The signed-in caller's user id (routes run after the caller projection, which refuses anonymous callers). */
export const userIdOf = (req: Request): number => req.caller.userId!;

/** The request's User-Agent, at most 255 characters (the `device` a scan records by default). */
const userAgentOf = (req: Request) => req.get('user-agent')?.slice(0, 255) ?? null;

/** The caller as use cases see them: id, name and e-mail from the gateway's JWT, and the User-Agent (255 characters at most). */
export const actorOf = (req: Request): Actor => ({
  userId: req.caller.userId!,
  name: req.caller.name,
  email: req.caller.email,
  userAgent: userAgentOf(req),
});

/** The scanning caller: the scanner device of the request (set by the device gate), else the user. */
export const scanActorOf = (req: Request): ScanActor =>
  req.device ? { device: req.device, userAgent: userAgentOf(req) } : actorOf(req);
