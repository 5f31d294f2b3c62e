import type { Request, Response } from 'express';
import type { ResultsSink } from '../domain/context.ts';
import { getResults, watchResults } from '../domain/results-queries.ts';
import { ResultsAnswer, ResultsQuery, fingerprintHeader } from './results-schemas.ts';
import { route } from './declare.ts';
import { pollParams } from './shared-schemas.ts';

const TAGS = ['Results'];

/**
 * An anonymous reader's fingerprint: `?voter_fingerprint=`, else the `X-Voter-Fingerprint`
 * header; used when it is a string of at most 200 characters, otherwise ignored.
 */
export const fingerprintOf = (query: { voter_fingerprint?: unknown }, req: Request): string | undefined => {
  const q = query.voter_fingerprint;
  const h = req.headers['x-voter-fingerprint'];
  const v = typeof q === 'string' ? q : typeof h === 'string' ? h : undefined;
  return v && v.length <= 200 ? v : undefined;
};

/** A Server-Sent Events answer (headers sent) as the sink of a live-results stream. */
const sseSink = (res: Response): ResultsSink => ({
  write: (chunk) => void res.write(chunk),
  close: (last) => {
    if (res.writableEnded) return;
    if (last === undefined) res.end();
    else res.end(last);
  },
  get closed() {
    return res.writableEnded || res.destroyed;
  },
  get full() {
    return res.writableNeedDrain;
  },
  onClose: (listener) => void res.on('close', listener),
  onDrain: (listener) => void res.on('drain', listener),
});

/** Results and live results (spec 2.2 and 4.2; docs/polls.md, "Results" and "Live results"). */
export const resultsRoutes = [
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/results',
    operationId: 'getResults',
    summary: 'Results (spec 2.2)',
    description:
      'From the Redis counters (rebuilt from MongoDB when lost). Unchanged results keep their `ETag`: ' +
      '`If-None-Match` answers 304. When the caller may not see the results (`poll.settings.results_visibility`, ' +
      'docs/polls.md "Result visibility"; `show_stats_public: false` for a non-owner), only ' +
      "the caller's own choices are shown (`stats_hidden: true`, `my_vote`).",
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    query: ResultsQuery,
    headers: fingerprintHeader,
    responses: {
      200: {
        description: 'Results',
        body: ResultsAnswer,
        headers: { ETag: { description: 'Changes when the answer changes.' } },
      },
    },
    problems: { 404: 'Unknown poll' },
    handler: async ({ params, query }, ctx, req, res) => {
      const results = await getResults(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        fingerprint: fingerprintOf(query, req),
      });
      // The ETag Express would compute, once per rendered answer (a cached answer reuses it).
      const etagOf = req.app.get('etag fn') as ((body: Buffer, encoding: string) => string) | undefined;
      if (etagOf) res.set('ETag', (results.etag ??= etagOf(results.body, 'utf8')));
      res.type('application/json; charset=utf-8').send(results.body);
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/results/stream',
    operationId: 'streamResults',
    summary: 'Live results as Server-Sent Events',
    description:
      'A `results` event (data: the Results object) at once, after counted votes (at most one event per 100 ms ' +
      'while votes keep coming, fewer with a large audience; always one after the last), close or reopen, from ' +
      "any replica, and within one heartbeat of the poll's `starts_at` or `ends_at` passing; each event shows what the " +
      'results read would show this reader (`results_visibility`); a `: heartbeat` comment every 15 s (`SSE_HEARTBEAT_MS`); a `deleted` event when the poll is ' +
      'deleted, then the stream ends. The gateway caps open streams per client address and per user: 429 ' +
      '`too_many_streams` with `Retry-After` above a cap.',
    tags: TAGS,
    access: 'optional',
    params: pollParams,
    notFound: 'No poll has this id.',
    query: ResultsQuery,
    headers: fingerprintHeader,
    responses: {
      200: { description: 'The event stream', content: { 'text/event-stream': null } },
    },
    problems: {
      404: 'Unknown poll',
      429: '`too_many_streams` (from the gateway): a stream cap is reached (see `Retry-After`)',
    },
    handler: async ({ params, query }, ctx, req, res) => {
      await watchResults(ctx, {
        pollId: params.poll_id,
        actor: req.caller,
        fingerprint: fingerprintOf(query, req),
        start: () => {
          res.writeHead(200, {
            'Content-Type': 'text/event-stream; charset=utf-8',
            'Cache-Control': 'no-cache, no-transform',
            Connection: 'keep-alive',
            'X-Accel-Buffering': 'no',
          });
          // A HEAD gets the headers only: a stream without a body would never send or end them.
          if (req.method === 'HEAD') {
            res.end();
            return null;
          }
          res.write('retry: 3000\n\n');
          return sseSink(res);
        },
      });
    },
  }),
];
