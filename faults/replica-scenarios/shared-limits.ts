/**
 * Replicas scenario `shared-limits`: the gateways' limits hold across replicas, because their
 * counters are in Redis (docs/identity.md, "Rate limits").
 * - Per user (write-behind): a new user sends requests to both gateways in turn, as fast as 16
 *   connections go, 1.25 times what per-replica counters would allow. What is let through must be at least the limit
 *   and at most the limit plus the documented slack of write-behind counting, (r − 1) × rate ×
 *   sync interval (per-replica counters would let twice the limit through); both gateways refuse.
 * - Failed logins (exact): wrong passwords for one e-mail sent to both gateways in turn: exactly
 *   `RATE_LIMIT_LOGIN` are answered 401, every later one 429.
 */
import { sleep } from '@fieldhouse/testkit';
import { count, gatewayClients, tally } from '../lib/replicas.ts';
import type { Scenario } from '../lib/scenario.ts';

/** The replicas suite's gateway settings (faults/run-replicas.ts). */
export const REPLICA_LIMITS = { perUser: 3_000, windowSeconds: 60, login: 5, syncMs: 100 };

export const sharedLimits: Scenario = {
  name: 'shared-limits',
  title: 'the per-user and failed-login limits hold across both gateways',
  async run(ctx, report) {
    const { stack, fx } = ctx;
    const email = `limits-${fx.runId}@example.test`;
    const reg = await ctx.anonymous.expect(201, 'POST', '/api/v1/register', {
      name: 'Limits',
      email,
      password: 'limits password 123',
    });
    const gateways = gatewayClients(stack, reg.token as string);
    const r = gateways.length;

    // One fixed window of the per-user counter: start early in it.
    const windowMs = REPLICA_LIMITS.windowSeconds * 1000;
    const into = Date.now() % windowMs;
    if (into > windowMs - 25_000) await sleep(windowMs - into + 200);

    const limit = REPLICA_LIMITS.perUser;
    // More than per-replica counters would let through, so the two cases cannot look alike.
    const total = Math.round(limit * r * 1.25);
    const statuses = new Map<string, number>();
    const refusedBy = new Map<string, number>();
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < total) {
          const g = gateways[next++ % r]!;
          const a = await g.api.get('/api/v1/_whoami');
          count(statuses, String(a.status));
          if (a.status === 429) count(refusedBy, g.name);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const rate = total / seconds;
    const allowed = statuses.get('200') ?? 0;
    // The documented slack, doubled (a replica's view is one sync old plus the flush's round
    // trip), plus one request in flight per connection.
    const slack = Math.ceil((r - 1) * rate * (REPLICA_LIMITS.syncMs / 1000));
    const bound = limit + 2 * slack + 16;
    report.check(
      allowed >= limit && allowed <= bound && (statuses.get('429') ?? 0) === total - allowed,
      `per-user limit ${limit}/${REPLICA_LIMITS.windowSeconds} s over ${r} gateways: ${total} requests in ${seconds.toFixed(1)} s (${Math.round(rate)}/s): ` +
        `${allowed} let through (at least the limit, at most ${bound}: the documented slack is ${slack}; per-replica counters would allow ${limit * r}); answers ${tally(statuses)}`,
    );
    report.check(
      bound < limit * r,
      `the bound (${bound}) tells shared counters from per-replica ones (${limit * r}) at this rate`,
    );
    report.check(
      gateways.every((g) => (refusedBy.get(g.name) ?? 0) > 0),
      `every gateway refused once the shared count passed the limit: 429s ${tally(refusedBy)}`,
    );

    const victim = `login-${fx.runId}@example.test`;
    await ctx.anonymous.expect(201, 'POST', '/api/v1/register', {
      name: 'Login victim',
      email: victim,
      password: 'the right password 123',
    });
    const anonymousGateways = gatewayClients(stack);
    const seen: number[] = [];
    for (let i = 0; i < REPLICA_LIMITS.login + 3; i++) {
      const a = await anonymousGateways[i % r]!.api.post('/api/v1/login', {
        email: victim,
        password: `wrong password ${i}`,
      });
      seen.push(a.status);
    }
    const expected = [...Array<number>(REPLICA_LIMITS.login).fill(401), ...Array<number>(3).fill(429)];
    report.check(
      seen.join(',') === expected.join(','),
      `failed logins for one e-mail, gateways in turn: ${seen.join(' ')} (expected ${REPLICA_LIMITS.login} × 401, then 429)`,
    );
    for (const g of [...gateways, ...anonymousGateways]) g.api.close();
  },
};
