import type { QueryClient } from '@tanstack/react-query';
import i18n, { i18nReady } from '../i18n/index.ts';
import { publicPollQuery } from '../pages/poll-public/poll-query.ts';
import { fetchMe, ME_KEY } from '../auth/session.ts';
import { CollectPage, ConsoleLayout, EmbedPage, ResultsPage, SubmissionsPage, VotePage } from './routes.tsx';

/** `/p/{poll_id}`, `/p/{poll_id}/results` and `/p/{poll_id}/embed`. */
const PUBLIC_POLL = /^\/p\/([^/]+)(?:\/(results|embed))?\/?$/;
/** `/f/{project_id}`: the collector's web form. */
const WEB_FORM = /^\/f\/(\d+)\/?$/;
/** `/projects/{project_id}/submissions`: the submissions table (issue #17: first page within 1 s). */
const SUBMISSIONS = /^\/projects\/\d+\/submissions\/?$/;
/** The longest the first render waits for them (a slow API must not keep the page blank). */
const MAX_WAIT_MS = 2_000;

/**
 * Fetches at once, in parallel, what the public pages need for their first render: the page's
 * chunk, its strings and its data (the poll; the web form's project, version and who is signed
 * in; for the submissions table, the console frame's code and who is signed in). Resolves when all three settled (never rejects: a
 * failure shows on the page as usual) or after {@link MAX_WAIT_MS}; at once on other pages.
 *
 * Why: left to React, they load one after the other (code, then strings, then data) and each
 * Suspense reveal waits for React's fallback throttle; voters open shared links on phones, where
 * that chain cost most of the time to show a poll (docs/console.md, "Speed").
 */
export function warmUp(queryClient: QueryClient, path = window.location.pathname): Promise<void> {
  const form = WEB_FORM.exec(path);
  if (form)
    return settle([
      i18nReady,
      CollectPage.preload(),
      i18n.loadNamespaces(['common', 'collectPage', 'collect']),
      // Imported here, not above: its IndexedDB code (idb, the offline store) would otherwise sit
      // in every page's entry chunk, the voting page's 150 KB budget included; the chunk comes
      // with the web form's own, in parallel.
      import('../pages/collect/use-collect-form.ts').then(({ collectFormQuery }) =>
        queryClient.prefetchQuery(collectFormQuery(Number(form[1]))),
      ),
      queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe, retry: false }),
    ]);
  // The console frame waits for `GET /me` before it renders a page: the page's code and
  // strings come at the same time instead of after it.
  if (SUBMISSIONS.test(path))
    return settle([
      i18nReady,
      ConsoleLayout.preload(),
      SubmissionsPage.preload(),
      i18n.loadNamespaces(['common', 'submissions', 'collection']),
      queryClient.prefetchQuery({ queryKey: ME_KEY, queryFn: fetchMe, retry: false }),
    ]);
  const match = PUBLIC_POLL.exec(path);
  // Every page: i18next ready, else each translated component suspends on the first render.
  if (!match)
    return i18nReady.then(
      () => undefined,
      () => undefined,
    );
  const pollId = decodeURIComponent(match[1]!);
  const page = match[2] === 'results' ? ResultsPage : match[2] === 'embed' ? EmbedPage : VotePage;
  return settle([
    i18nReady,
    page.preload(),
    i18n.loadNamespaces(['common', match[2] ?? 'vote']),
    queryClient.prefetchQuery(publicPollQuery(pollId)),
  ]);
}

/** Resolves when every step settled, or after {@link MAX_WAIT_MS}. */
function settle(steps: Promise<unknown>[]): Promise<void> {
  const needed = Promise.allSettled(steps);
  return Promise.race([needed.then(() => undefined), new Promise<void>((r) => setTimeout(r, MAX_WAIT_MS))]);
}
