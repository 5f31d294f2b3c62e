import { Router, type Request } from 'express';
import type { PollsContext } from '../domain/context.ts';
import { findPoll } from '../domain/manage.ts';
import { readResults } from '../domain/results.ts';
import { readerOf } from '../domain/voter.ts';
import type { ResultsStreams } from '../live/results-streams.ts';
import { notFound } from '@fieldhouse/problem';

const fingerprintOf = (req: Request): string | undefined => {
  const q = req.query.voter_fingerprint;
  const h = req.headers['x-voter-fingerprint'];
  const v = typeof q === 'string' ? q : typeof h === 'string' ? h : undefined;
  return v && v.length <= 200 ? v : undefined;
};

/** Results and live results (spec 2.2 and 4.2; docs/polls.md, "Results" and "Live results"). */
export function resultsRoutes(ctx: PollsContext, streams: ResultsStreams): Router {
  const r = Router();

  /**
   * GET /api/polls/{poll_id}/results[?voter_fingerprint=]: `{data: results, message}` (spec 2.2),
   * from the Redis counters (rebuilt from MongoDB when lost). 404 unknown poll.
   */
  r.get('/api/polls/:id/results', async (req, res) => {
    const results = await readResults(ctx, req.params.id, readerOf(req.caller, fingerprintOf(req)));
    if (!results) throw notFound('No poll has this id.');
    // The ETag Express would compute, once per rendered answer (a cached answer reuses it).
    const etagOf = req.app.get('etag fn') as ((body: Buffer, encoding: string) => string) | undefined;
    if (etagOf) res.set('ETag', (results.etag ??= etagOf(results.body, 'utf8')));
    res.type('application/json; charset=utf-8').send(results.body);
  });

  /**
   * GET /api/polls/{poll_id}/results/stream: Server-Sent Events (docs/polls.md, "Live
   * results"). A `results` event (data: the results object of spec 2.2) at once, then after
   * each change: counted votes (spaced out: LiveResults.voteCounted and the fan-out budget of
   * ResultsStreams), close or reopen, from any replica (Redis pub/sub); a `: heartbeat` comment
   * every SSE_HEARTBEAT_MS; `deleted` when the poll is deleted. 404 unknown poll.
   */
  r.get('/api/polls/:id/results/stream', async (req, res) => {
    const id = req.params.id;
    await findPoll(ctx, id);
    const reader = readerOf(req.caller, fingerprintOf(req));
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // A HEAD gets the headers only: a stream without a body would never send or end them.
    if (req.method === 'HEAD') return void res.end();
    res.write('retry: 3000\n\n');
    await streams.open(id, reader, res);
  });
  return r;
}
