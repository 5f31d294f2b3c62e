import { SUBMISSION_STATUSES, type SubmissionStatus } from '../collection/types.ts';

/**
 * The submissions list's state, kept in the page's URL so a filtered view can be shared as a
 * link: the spec's list parameters (4.1: `status`, `date_from`, `date_to`, `collector_id`,
 * `search`, `page`, `per_page`) plus `submission`, the one open in the drawer.
 */
export interface ListState {
  status?: SubmissionStatus;
  date_from?: string;
  date_to?: string;
  collector_id?: number;
  search?: string;
  page: number;
  per_page: number;
  submission?: number;
}

/** The filters an export or a "select all matching" takes: the state without paging. */
export type ListFilters = Pick<ListState, 'status' | 'date_from' | 'date_to' | 'collector_id' | 'search'>;

export const PER_PAGE_CHOICES = [15, 25, 50, 100] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const positive = (raw: string | null): number | undefined => {
  const n = Number(raw);
  return raw !== null && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/**
 * Reads the state from a URL's query. Values the API would refuse (an unknown status, a day
 * that is not YYYY-MM-DD, a page size outside 1..100) are dropped rather than sent, so a
 * hand-edited link still shows a page.
 */
export function readListState(params: URLSearchParams): ListState {
  const status = params.get('status');
  const perPage = positive(params.get('per_page'));
  const day = (key: string) => {
    const v = params.get(key);
    return v && DAY.test(v) ? v : undefined;
  };
  const search = params.get('search')?.trim();
  return {
    status: SUBMISSION_STATUSES.includes(status as SubmissionStatus)
      ? (status as SubmissionStatus)
      : undefined,
    date_from: day('date_from'),
    date_to: day('date_to'),
    collector_id: positive(params.get('collector_id')),
    search: search ? search : undefined,
    page: positive(params.get('page')) ?? 1,
    per_page: perPage !== undefined && perPage <= 100 ? perPage : 15,
    submission: positive(params.get('submission')),
  };
}

/** Writes the state back as a query, leaving out defaults and empty values (short links). */
export function writeListState(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  const set = (key: string, v: string | number | undefined) => {
    if (v !== undefined && v !== '') params.set(key, String(v));
  };
  set('status', state.status);
  set('date_from', state.date_from);
  set('date_to', state.date_to);
  set('collector_id', state.collector_id);
  set('search', state.search);
  if (state.page > 1) set('page', state.page);
  if (state.per_page !== 15) set('per_page', state.per_page);
  set('submission', state.submission);
  return params;
}

/** The filters of a state, as the list, the exports and "select all matching" send them. */
export const filtersOf = ({ status, date_from, date_to, collector_id, search }: ListState): ListFilters => ({
  ...(status ? { status } : {}),
  ...(date_from ? { date_from } : {}),
  ...(date_to ? { date_to } : {}),
  ...(collector_id ? { collector_id } : {}),
  ...(search ? { search } : {}),
});
