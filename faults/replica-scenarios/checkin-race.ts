/**
 * Replicas scenario `checkin-race`: the same invitee's code scanned at two doors at once, each
 * door's scanner on a different gateway (and, through the balancer, events replica): for every
 * code exactly one scan is admitted (200) and the others are answered 409 `already_checked_in`;
 * the attendance log holds one check-in per invitee (the row lock in PostgreSQL decides).
 */
import { importInvites, createEvent } from '../lib/fixtures.ts';
import { count, gatewayClients, tally } from '../lib/replicas.ts';
import type { Scenario } from '../lib/scenario.ts';

const CODES = 40;
/** Scans of each code sent at the same moment, spread over the gateways. */
const SCANS = 4;

export const checkinRace: Scenario = {
  name: 'checkin-race',
  title: 'one code scanned on both replicas at once: exactly one check-in succeeds',
  async run(ctx, report) {
    const { stack, fx } = ctx;
    const event = await createEvent(fx.api, `Race ${fx.runId}`);
    const invites = await importInvites(fx.api, event.id, CODES, `race${fx.runId}`);
    const gateways = gatewayClients(stack, fx.user.token);
    const outcomes = new Map<string, number>();
    const byEvents = new Map<string, number>();
    const wrong: string[] = [];
    /** Codes whose simultaneous scans reached more than one events replica. */
    let spanned = 0;
    await Promise.all(
      invites.map(async (inv, i) => {
        const answers = await Promise.all(
          Array.from({ length: SCANS }, (_, k) =>
            gateways[k % gateways.length]!.api.post(`/api/events/${event.id}/checkin`, {
              code_unique: inv.code,
              nonce: `${fx.runId}-race-${i}-${k}`,
            }),
          ),
        );
        const servers = answers.map((a) => String(a.headers['x-served-by-events'] ?? 'unknown'));
        for (const by of servers) count(byEvents, by);
        if (new Set(servers).size > 1) spanned++;
        const ok = answers.filter((a) => a.status === 200).length;
        const already = answers.filter(
          (a) => a.status === 409 && a.body?.code === 'already_checked_in',
        ).length;
        count(outcomes, `${ok} admitted + ${already} already_checked_in`);
        if (ok !== 1 || already !== SCANS - 1)
          wrong.push(`${inv.code}: ${answers.map((a) => a.status).join('/')}`);
      }),
    );
    report.check(
      wrong.length === 0,
      `${CODES} codes × ${SCANS} simultaneous scans over ${gateways.map((g) => g.name).join(' and ')}: ${tally(outcomes)}` +
        (wrong.length ? `; e.g. ${wrong.slice(0, 3).join(', ')}` : ''),
    );
    // Round robin spreads each code's scans over the replicas; a code whose scans all land on one
    // replica (about 1 in 8) races only within it, so at least half must have raced across.
    report.check(
      stack.namesOf('events').every((n) => (byEvents.get(n) ?? 0) > 0) && spanned >= CODES / 2,
      `scans answered by ${tally(byEvents)}; ${spanned} of ${CODES} codes raced on both events replicas`,
    );
    const logged = (await ctx.stores
      .events('attendance_log')
      .where({ event_id: event.id, action: 'checkin' })
      .select('invite_id')
      .count({ n: '*' })
      .groupBy('invite_id')) as Array<{ invite_id: string; n: number | string }>;
    report.check(
      logged.length === CODES && logged.every((r) => Number(r.n) === 1),
      `attendance log: ${logged.length} invitees checked in, ${logged.filter((r) => Number(r.n) !== 1).length} more than once`,
    );
    for (const g of gateways) g.api.close();
  },
};
