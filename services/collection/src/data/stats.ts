import type { Knex } from 'knex';
import { STATUSES } from '../domain/types.ts';

/**
 * Statistics of a project: totals per status and per UTC day (from the counters), per
 * collector (anonymous submissions under `collector_id: null`), and the last submission time.
 */
export async function projectStats(db: Knex, projectId: number) {
  const byStatusRows = (await db('submission_counts')
    .where({ project_id: projectId })
    .select('status')
    .sum({ n: 'n' })
    .groupBy('status')) as Array<{ status: string; n: string }>;
  const by_status = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<string, number>;
  for (const r of byStatusRows) by_status[r.status] = Number(r.n);
  const byDay = (await db('submission_counts')
    .where({ project_id: projectId })
    .select(db.raw(`to_char(day, 'YYYY-MM-DD') AS date`))
    .sum({ n: 'n' })
    .groupBy('day')
    .havingRaw('sum(n) > 0')
    .orderBy('day')) as Array<{ date: string; n: string }>;
  const byCollector = (await db('submissions as s')
    .leftJoin('users as u', 'u.id', 's.collector_id')
    .where('s.project_id', projectId)
    .groupBy('s.collector_id', 'u.name')
    .select('s.collector_id', 'u.name')
    .count({ n: '*' })
    .orderBy('n', 'desc')) as Array<{ collector_id: number | null; name: string | null; n: number }>;
  const last = (await db('submissions')
    .where({ project_id: projectId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('created_at')) as { created_at: Date } | undefined;
  return {
    total: Object.values(by_status).reduce((a, b) => a + b, 0),
    by_status,
    by_day: byDay.map((d) => ({ date: d.date, count: Number(d.n) })),
    by_collector: byCollector.map((c) => ({
      collector_id: c.collector_id,
      name: c.name,
      count: Number(c.n),
    })),
    last_submission_at: last?.created_at ?? null,
  };
}
