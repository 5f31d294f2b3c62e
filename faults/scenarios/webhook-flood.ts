/**
 * Scenario: the reproduction of issue 31 (F1). One owner points 60 webhook subscriptions
 * (`poll.vote.counted`) at a receiver that accepts connections and never answers, spread over
 * as many of their polls as the subscription cap asks, and casts 20 votes on each of those
 * polls, twice (1,200 deliveries a burst, each held until the attempt's time limit); meanwhile
 * the steady load votes, comments and reads results on another poll for FAULTS_FLOOD_SECONDS
 * (120 s), and a second owner's poll, with one subscription to a receiver that answers at once,
 * gets a vote every 2 s. At the end the first owner deletes their subscriptions. Proves
 * (docs/reliability.md, "When a store hangs"; docs/webhooks.md, "Isolation"): the store keeps
 * answering (a read and a write every second, each within 5 s), no request waits past the
 * client's timeout and no answer is a 5xx other than 503 with `Retry-After`, every other
 * owner's delivery arrives within 1 s of its vote's answer, and the store, the votes and the
 * counts are whole afterwards. On the SQLite handler (553a92e) the store answered
 * `SQLITE_BUSY` and then hung for good (docs/reliability.md gives the run).
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { MongoClient } from 'mongodb';
import { sleep } from '@fieldhouse/testkit';
import { checkAnswers, checkPollCounts, checkStream } from '../lib/durability.ts';
import { voteBody } from '../lib/fixtures.ts';
import type { Api } from '../lib/http.ts';
import { retryUnacknowledged, SteadyLoad, Stream, type Attempt, type StreamSpec } from '../lib/load.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';
import { resultsReadStream, voteStream } from '../lib/streams.ts';

const twoOptionPoll = (title: string) => ({
  title,
  sections: [{ title: 'Q', options: [{ label: 'yes' }, { label: 'no' }] }],
});

/** Anonymous comments on `pollId` at `rate`/s (not written again: a comment has no retry key). */
const commentStream = (pollId: string, api: Api, rate: number): StreamSpec => ({
  name: 'comments',
  api,
  rate,
  ackStatus: 201,
  make: (i) => ({
    marker: `c${i}`,
    method: 'POST',
    path: `/api/polls/${pollId}/comment`,
    // A new anonymous commenter each time: the per-voter comment limit is not what is tested.
    body: {
      content: `flood comment ${i}`,
      author_name: `commenter ${i}`,
      voter_fingerprint: `flood-commenter-${i}`,
    },
  }),
});

export const webhookFlood: Scenario = {
  name: 'webhook-flood',
  title:
    'one owner’s 60 dead webhook receivers under votes and comments: the store keeps answering, another owner’s deliveries within 1 s',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    // The dead receiver: accepts every connection, reads what comes (so it sees a client close
    // it), never answers.
    const held = new Set<Socket>();
    let mostHeld = 0;
    const dead = createTcpServer((socket) => {
      held.add(socket);
      mostHeld = Math.max(mostHeld, held.size);
      socket.resume();
      socket.on('error', () => undefined);
      socket.on('close', () => held.delete(socket));
    });
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as { port: number }).port}/hook`;
    // The other owner's receiver: answers 204 at once, notes when each vote's delivery came.
    const arrivals = new Map<string, number>();
    const live = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        try {
          const voteId = (JSON.parse(body) as { data?: { vote?: { id?: string } } }).data?.vote?.id;
          if (voteId && !arrivals.has(voteId)) arrivals.set(voteId, performance.now());
        } catch {
          // not a delivery
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    const liveUrl = `http://127.0.0.1:${(live.address() as { port: number }).port}/hook`;
    const storeClient = new MongoClient(stack.mongoUrl, {
      serverSelectionTimeoutMS: 5_000,
      socketTimeoutMS: 5_000,
      maxPoolSize: 2,
    });
    try {
      // The other owner: a poll with one subscription to the receiver that answers.
      const reg = await ctx.anonymous.expect(201, 'POST', '/api/v1/register', {
        name: 'Other Owner',
        email: `flood-other-${fx.runId}@example.test`,
        password: 'another fault suite password',
      });
      const other = ctx.anonymous.as(reg.token as string);
      const otherPoll = (await other.expect(201, 'POST', '/api/polls', twoOptionPoll('Other owner')))
        .data as { id: string; sections: Array<{ id: string; options: Array<{ id: string }> }> };
      await other.expect(201, 'POST', `/api/polls/${otherPoll.id}/webhooks`, {
        url: liveUrl,
        events: ['poll.vote.counted'],
      });

      // The flooding owner: subscriptions to the dead receiver, a new poll each time the cap says so.
      const floodPolls: Array<{
        id: string;
        sections: Array<{ id: string; options: Array<{ id: string }> }>;
      }> = [];
      const subscriptions: Array<{ pollId: string; id: string }> = [];
      let refusedAtCap = 0;
      while (subscriptions.length < settings.floodReceivers) {
        if (!floodPolls.length || refusedAtCap) {
          floodPolls.push(
            (await fx.api.expect(201, 'POST', '/api/polls', twoOptionPoll(`Flood ${floodPolls.length}`)))
              .data,
          );
          refusedAtCap = 0;
        }
        const poll = floodPolls.at(-1)!;
        const made = await fx.api.send('POST', `/api/polls/${poll.id}/webhooks`, {
          url: deadUrl,
          events: ['poll.vote.counted'],
        });
        if (made.status === 201)
          subscriptions.push({ pollId: poll.id, id: (made.body.data ?? made.body).id });
        else if (made.status === 422 && !refusedAtCap) refusedAtCap = 1;
        else throw new Error(`creating a subscription answered ${made.status}: ${made.text.slice(0, 200)}`);
      }
      report.info(
        `${subscriptions.length} subscriptions to a receiver that never answers, over ${floodPolls.length} poll(s)`,
      );

      // Each burst's votes: how many were counted, of how many sent.
      const floodCounted: Array<{ counted: number; of: number }> = [];
      const floodVotes = async (round: number) => {
        const answers = await Promise.all(
          floodPolls.flatMap((poll) =>
            Array.from({ length: settings.floodVotesPerPoll }, (_, i) => {
              const marker = `flood-${fx.runId}-${round}-${poll.id}-${i}`;
              return ctx.anonymous.send('POST', `/api/polls/${poll.id}/vote`, voteBody(poll, marker, i), {
                'idempotency-key': marker,
              });
            }),
          ),
        );
        const counted = answers.filter((a) => a.status === 201).length;
        floodCounted.push({ counted, of: answers.length });
        return Stream.statusSummary(answers.map((a) => ({ status: a.status }) as Attempt));
      };

      const prefix = `fx-${fx.runId}-wf`;
      const load = new SteadyLoad(ctx.api, [
        voteStream(fx, ctx.anonymous, settings.rates.votes, prefix),
        commentStream(fx.poll.id, ctx.anonymous, 5),
        { ...resultsReadStream(fx.poll.id, 5), api: ctx.anonymous },
        {
          name: 'other-votes',
          api: ctx.anonymous,
          rate: 0.5,
          ackStatus: 201,
          make: (i) => {
            const marker = `${prefix}-o${i}`;
            return {
              marker,
              method: 'POST',
              path: `/api/polls/${otherPoll.id}/vote`,
              body: voteBody(otherPoll, marker, i),
              headers: { 'idempotency-key': marker },
            };
          },
        },
      ]);
      // The store, read and written every second with a deadline, as the supervisor's probe does.
      const probes: Array<{ at: number; ms: number; error?: string }> = [];
      let probing = true;
      const probeLoop = (async () => {
        const coll = storeClient.db(stack.mongoDb).collection<{ _id: string; at: Date }>('flood_probe');
        while (probing) {
          const at = performance.now();
          try {
            await coll.updateOne({ _id: 'p' }, { $set: { at: new Date() } }, { upsert: true });
            await coll.findOne({ _id: 'p' });
            probes.push({ at, ms: performance.now() - at });
          } catch (err) {
            probes.push({ at, ms: performance.now() - at, error: String(err).slice(0, 160) });
          }
          await sleep(1_000);
        }
      })();

      // The moments the flooding owner writes in bulk (1,200 deliveries recorded, or sixty logs
      // deleted), and the few seconds after, while the store works through them.
      const windows: Array<{ what: string; from: number; to: number }> = [];
      const inWindow = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
        const from = performance.now();
        try {
          return await work();
        } finally {
          windows.push({ what, from, to: performance.now() + settings.floodWindowMs });
        }
      };
      load.start();
      const started = performance.now();
      try {
        report.info(`flood burst 1: ${await inWindow('burst 1', () => floodVotes(1))}`);
        await sleep((settings.floodSeconds * 1000) / 2 - (performance.now() - started));
        report.info(`flood burst 2: ${await inWindow('burst 2', () => floodVotes(2))}`);
        await sleep(Math.max(0, settings.floodSeconds * 1000 - (performance.now() - started)));
        // F1's last step: the flooding owner deletes the subscriptions under load.
        const deleted = await inWindow('deletion', () =>
          Promise.all(
            subscriptions.map((s) => fx.api.send('DELETE', `/api/polls/${s.pollId}/webhooks/${s.id}`)),
          ),
        );
        report.info(
          `subscriptions deleted: ${Stream.statusSummary(deleted.map((a) => ({ status: a.status }) as Attempt))}`,
        );
        await sleep(10_000);
      } finally {
        await load.stop();
        probing = false;
        await probeLoop;
      }

      // The other owner's deliveries: each acknowledged vote's delivery, timed from its answer.
      const otherStream = load.stream('other-votes');
      await sleep(2_000); // the last vote's delivery
      const timed = otherStream.attempts.flatMap((a) => {
        if (!a.acked || !a.answerId) return [];
        const answeredAt = a.doneAt;
        const came = arrivals.get(a.answerId);
        return {
          answeredAt,
          delay: came === undefined ? Infinity : Math.max(0, came - answeredAt),
          window: windows.find((w) => answeredAt >= w.from && answeredAt < w.to)?.what,
        };
      });
      const summary = (ds: number[]) => {
        const sorted = [...ds].sort((a, b) => a - b);
        return `${secs(sorted[Math.floor(sorted.length / 2)])} (median), ${secs(sorted.at(-1))} (worst)`;
      };
      const late = timed.filter((d) => d.delay > settings.floodIsolationTargetMs);
      if (late.length)
        report.info(
          `late deliveries of the other owner (s after the load started: delay): ` +
            late
              .slice(0, 10)
              .map(
                (d) => `${secs(d.answeredAt - started)}: ${secs(d.delay)}${d.window ? ` (${d.window})` : ''}`,
              )
              .join(', '),
        );
      // While the flooding owner's receivers hang: its slots and sockets are its own.
      const hanging = timed.filter((d) => !d.window).map((d) => d.delay);
      report.check(
        hanging.length > 0 && Math.max(...hanging) <= settings.floodIsolationTargetMs,
        `while the first owner's deliveries hang, the other owner's ${hanging.length} deliveries came ` +
          `${summary(hanging)} after their votes were answered (target ≤ ${secs(settings.floodIsolationTargetMs)}); ` +
          `${hanging.filter((d) => d === Infinity).length} never came`,
      );
      // While the store records a burst (60 votes × 20 subscriptions) or deletes sixty logs: the
      // store's capacity is shared, so those writes delay everyone's a little (docs/webhooks.md).
      const bulk = timed.filter((d) => d.window).map((d) => d.delay);
      report.check(
        bulk.every((d) => d <= settings.floodBulkTargetMs),
        `within ${secs(settings.floodWindowMs)} of the first owner's bulk writes (${windows.map((w) => w.what).join(', ')}), ` +
          `the other owner's ${bulk.length} deliveries came ${bulk.length ? summary(bulk) : 'n/a'} ` +
          `after their votes were answered (target ≤ ${secs(settings.floodBulkTargetMs)})`,
      );
      // The flood happened: both bursts counted (each vote 20 deliveries), the dead receiver held
      // the owner's share of connections, and the other owner's votes were counted.
      report.check(
        floodCounted.length === 2 && floodCounted.every((b) => b.counted >= 0.95 * b.of),
        `the flooding owner's votes counted: ${floodCounted.map((b) => `${b.counted} of ${b.of}`).join(', ')} ` +
          `(${floodCounted.reduce((n, b) => n + b.counted, 0) * Math.round(settings.floodReceivers / Math.max(1, floodPolls.length))} deliveries)`,
      );
      // One connection pool per owner, 16 sockets per origin (a few more while closes cross).
      report.check(
        mostHeld >= 16 && mostHeld <= 20,
        `the dead receiver held up to ${mostHeld} of the flooding owner's connections at once (its share: 16)`,
      );
      const otherAcked = otherStream.attempts.filter((a) => a.acked).length;
      report.check(
        otherAcked >= 0.9 * otherStream.attempts.length,
        `the other owner's votes counted: ${otherAcked} of ${otherStream.attempts.length}`,
      );
      const failedProbes = probes.filter((p) => p.error || p.ms > 5_000);
      report.check(
        probes.length > 0 && failedProbes.length === 0,
        `the store answered ${probes.length - failedProbes.length} of ${probes.length} reads and writes within 5 s ` +
          `(slowest ${secs(Math.max(0, ...probes.map((p) => p.ms)))})` +
          (failedProbes.length ? `; e.g. ${failedProbes[0]!.error ?? 'too slow'}` : ''),
      );
      for (const s of load.streams)
        checkAnswers(
          report,
          s,
          `${Stream.statusSummary(s.attempts)}, slowest ${secs(Math.max(0, ...s.attempts.map((a) => a.doneAt - a.sentAt)))}`,
        );
      const ready = await ctx.anonymous.send('GET', '/api/polls/' + fx.poll.id + '/results');
      report.check(ready.status === 200, `after the flood a results read answers ${ready.status}`);
      const votes = load.stream('votes');
      const before = await ctx.stores.votes(fx.poll.id);
      report.info(`votes: ${await retryUnacknowledged(votes, ctx.anonymous)}`);
      checkStream(report, votes, await ctx.stores.votes(fx.poll.id), before);
      await checkPollCounts(report, ctx.api, ctx.stores, fx.poll.id, settings.settleMs);
    } finally {
      await storeClient.close();
      for (const s of held) s.destroy();
      dead.close();
      live.closeAllConnections();
      live.close();
    }
  },
};
