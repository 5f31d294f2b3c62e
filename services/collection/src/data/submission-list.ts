import type { Knex } from 'knex';
import { SEARCH_PREFIX_MAX } from '../migrations/007-search-prefixes.ts';
import type { Status } from '../domain/types.ts';
import { SUBMISSION_COLUMNS, type SubmissionRow } from './submissions.ts';

/** Filters of `GET /projects/{id}/submissions` (spec 4.1). Dates are inclusive UTC days. */
export interface ListFilters {
  status?: Status;
  date_from?: string;
  date_to?: string;
  collector_id?: number;
  search?: string;
}

const LIST_COLUMNS = SUBMISSION_COLUMNS.map((c) => `s.${c}`);

/**
 * `search` as a tsquery: each word (letters and digits, at most 10 words) must start a word of
 * the values. The vector indexes every word prefix up to {@link SEARCH_PREFIX_MAX} characters
 * (migration 007), so such a word is one exact lexeme; a longer one is a `:*` prefix query.
 */
function searchQuery(search: string): string | null {
  const words = search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.length) return null;
  return words
    .slice(0, 10)
    .map((w) => ([...w].length <= SEARCH_PREFIX_MAX ? w : `${w}:*`))
    .join(' & ');
}

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/**
 * The WHERE clause of the filters on `submissions` (alias s); the list, the exports and the
 * analyses use it. A `search` without any word matches nothing.
 */
export function applyFilters(q: Knex.QueryBuilder, projectId: number, f: ListFilters) {
  q.where('s.project_id', projectId);
  if (f.status) q.where('s.status', f.status);
  if (f.collector_id !== undefined) q.where('s.collector_id', f.collector_id);
  if (f.date_from) q.where('s.created_at', '>=', `${f.date_from}T00:00:00Z`);
  if (f.date_to) q.where('s.created_at', '<', dayAfter(f.date_to));
  if (f.search) {
    const tsquery = searchQuery(f.search);
    if (tsquery) q.whereRaw(`s.search @@ to_tsquery('simple', ?)`, [tsquery]);
    else q.whereRaw('false');
  }
  return q;
}

/**
 * One page of a project's submissions, newest first, with the exact total.
 *
 * Without `search` and `collector_id`, the total comes from the per-day counters, and a deep
 * page starts from the day that holds its first row (found by walking the day counts), so the
 * database skips at most one day of rows instead of OFFSET rows: page 5,000 costs about what
 * page 1 does. With `collector_id` (small result sets), it counts and uses OFFSET over the
 * matching index. With `search`, one pass over the matches gives both the page and, with
 * `count(*) OVER ()`, their number (the GIN index scan and the heap visits are paid once, not
 * twice); a page past the last one counts on its own. Search queries get `work_mem` 16 MB, so
 * the bitmaps of prefix matches stay exact instead of turning lossy and rechecking whole heap
 * pages. Call it in one REPEATABLE READ snapshot (`ctx.inSnapshot`) so total and rows agree.
 */
export async function listSubmissions(
  trx: Knex.Transaction,
  projectId: number,
  f: ListFilters,
  page: number,
  perPage: number,
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const tsquery = f.search ? searchQuery(f.search) : null;
  if (f.search && !tsquery) return { rows: [], total: 0 };
  const offset = (page - 1) * perPage;
  const rowsQuery = (upperBound: string | null, skip: number, withTotal = false) => {
    const inner = applyFilters(
      trx('submissions as s').select('s.id', ...(withTotal ? [trx.raw('count(*) OVER () AS total')] : [])),
      projectId,
      f,
    )
      .limit(perPage)
      .offset(skip);
    // With a search, sort the (few) matches from the GIN index: ordering by an expression
    // keeps the planner from walking the created_at index and testing every vector.
    if (tsquery) inner.orderByRaw(`s.created_at + interval '0 s' DESC, s.id DESC`);
    else
      inner.orderBy([
        { column: 's.created_at', order: 'desc' },
        { column: 's.id', order: 'desc' },
      ]);
    if (upperBound) inner.where('s.created_at', '<', upperBound);
    return trx('submissions as s')
      .join(inner.as('page'), 'page.id', 's.id')
      .select(withTotal ? [...LIST_COLUMNS, 'page.total'] : LIST_COLUMNS)
      .orderBy([
        { column: 's.created_at', order: 'desc' },
        { column: 's.id', order: 'desc' },
      ]) as Promise<SubmissionRow[]>;
  };
  if (tsquery) {
    await trx.raw(`SET LOCAL work_mem = '16MB'`);
    const found = (await rowsQuery(null, offset, true)) as Array<SubmissionRow & { total?: string }>;
    if (found.length) {
      const total = Number(found[0]!.total);
      return { rows: found.map(({ total: _, ...row }) => row), total };
    }
    // nothing from the first row on: no match at all; past the end, count on its own
    if (offset === 0) return { rows: [], total: 0 };
  }
  if (tsquery || f.collector_id !== undefined) {
    const [{ n }] = (await applyFilters(trx('submissions as s'), projectId, f).count({
      n: '*',
    })) as [{ n: number }];
    const total = Number(n);
    return { rows: offset < total ? await rowsQuery(null, offset) : [], total };
  }
  const days = await dayCounts(trx, projectId, f);
  const total = days.reduce((sum, d) => sum + d.n, 0);
  if (offset >= total) return { rows: [], total };
  let before = 0;
  let start = days[0]!;
  for (const d of days) {
    start = d;
    if (before + d.n > offset) break;
    before += d.n;
  }
  const isFirstDay = start === days[0];
  return { rows: await rowsQuery(isFirstDay ? null : dayAfter(start.day), offset - before), total };
}

/** Submissions per UTC day (newest day first) matching status and date filters, from the counters. */
async function dayCounts(trx: Knex.Transaction, projectId: number, f: ListFilters) {
  const q = trx('submission_counts')
    .where('project_id', projectId)
    .select(trx.raw(`to_char(day, 'YYYY-MM-DD') AS day`))
    .sum({ n: 'n' })
    .groupBy('day')
    .havingRaw('sum(n) > 0')
    .orderBy('day', 'desc');
  if (f.status) q.where('status', f.status);
  if (f.date_from) q.where('day', '>=', f.date_from);
  if (f.date_to) q.where('day', '<=', f.date_to);
  const rows = (await q) as Array<{ day: string; n: string | number }>;
  return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
}
