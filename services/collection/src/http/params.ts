import type { Request } from 'express';
import { notFound } from '@fieldhouse/problem';

/**
 * A positive integer path parameter (ids of spec 4.1).
 * @throws ProblemError 404 when it is not one (nothing can have that id).
 */
export function idParam(req: Request, name: string): number {
  const raw = req.params[name];
  const n = typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n > 2_147_483_647 * 1024) throw notFound();
  return n;
}
