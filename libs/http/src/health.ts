import { Router } from 'express';

/** A dependency checked by `/readyz`; `check` rejects when the dependency is unusable. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<unknown>;
  /**
   * When false the check is reported but does not make the process unready (a dependency the
   * process degrades gracefully without, like the gateway's rate-limit Redis). Default true.
   */
  critical?: boolean;
}

/** Runs `promise` but rejects after `ms` milliseconds (`timed out after <ms> ms`). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

/**
 * `GET /healthz`: 200 `{status: "ok"}` while the process runs (liveness).
 * `GET /readyz`: 200 `{status: "ok", checks: {name: "ok"}}` when every dependency answers within
 * 2 s (non-critical ones are shown but do not count), else 503 with `status: "unavailable"`
 * and the failing checks marked `"down"`
 * (the reason is logged, not shown).
 */
export function healthRouter(checks: ReadinessCheck[], isShuttingDown: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results: Record<string, 'ok' | 'down'> = {};
    await Promise.all(
      checks.map(async (c) => {
        try {
          await withTimeout(c.check(), 2000);
          results[c.name] = 'ok';
        } catch {
          results[c.name] = 'down';
        }
      }),
    );
    const ready = !isShuttingDown() && checks.every((c) => c.critical === false || results[c.name] === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ok' : 'unavailable', checks: results, shuttingDown: isShuttingDown() });
  });
  return router;
}
