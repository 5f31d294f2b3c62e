import type { PollsContext, ResultsSink, ResultsStreamsPort } from '../domain/context.ts';
import { readResults, seesStats } from '../domain/results.ts';
import type { RenderedResults } from '../domain/results-cache.ts';
import type { Voter } from '../domain/types.ts';

/** One open live-results stream (an SSE answer's sink) and who reads it. */
interface Stream {
  sink: ResultsSink;
  reader: Voter | null;
  /** An event that waits for the socket to drain (only the newest is kept: each is complete). */
  waiting: Buffer | string | null;
}

/** The open streams of one poll, and the state of its pushes. */
interface PollStreams {
  streams: Set<Stream>;
  unsubscribe: Promise<() => Promise<void>>;
  heartbeat: NodeJS.Timeout;
  sending: boolean;
  again: boolean;
  lastPushAt: number;
  /** When the first stream of this poll opened (epoch ms): its first results were read then. */
  openedAt: number;
  timer: NodeJS.Timeout | undefined;
}

/** Fan-out settings (docs/polls.md, "Live results"). */
export interface StreamSettings {
  /** Interval of `: heartbeat` comments (ms). */
  heartbeatMs: number;
  /**
   * Stream writes per second one process allows itself for one poll's pushes: with N open
   * streams, pushes are at least N / budget seconds apart (10,000 streams, 20,000/s: 0.5 s),
   * so a large audience costs a bounded share of the CPU. The last change is always pushed.
   */
  writesPerSecond: number;
}

/**
 * The live-results streams of this process (spec 2.2 "live results"; docs/polls.md, "Live
 * results"), fanned out per poll: one Redis subscription per poll with viewers, one results
 * read per distinct view on each change (every reader with full statistics shares one; a
 * reader who sees only their own vote gets theirs), and one heartbeat timer per poll. A
 * stream whose socket is full gets only the newest results once it drains, never a backlog.
 */
export class ResultsStreams implements ResultsStreamsPort {
  private readonly ctx: PollsContext;
  private readonly settings: StreamSettings;
  private readonly polls = new Map<string, PollStreams>();

  constructor(ctx: PollsContext, settings: StreamSettings) {
    this.ctx = ctx;
    this.settings = settings;
  }

  /**
   * Adds a stream (its answer started) for `pollId`; sends the current results at once, then
   * every change, until the client goes away or the poll is deleted (`deleted` event, then the
   * stream ends).
   */
  async open(pollId: string, reader: Voter | null, sink: ResultsSink): Promise<void> {
    const stream: Stream = { sink, reader, waiting: null };
    const poll = this.pollStreams(pollId);
    poll.streams.add(stream);
    sink.onClose(() => this.close(pollId, stream));
    sink.onDrain(() => {
      if (stream.waiting === null) return;
      const event = stream.waiting;
      stream.waiting = null;
      this.write(stream, event);
    });
    try {
      await poll.unsubscribe;
      const first = await readResults(this.ctx, pollId, reader, { fresh: true });
      this.deliver([stream], first);
    } catch (err) {
      // Redis or MongoDB away: end the stream; the client reconnects after `retry` (3 s).
      this.ctx.logger.warn('SSE first results failed', { err });
      sink.close();
    }
  }

  private pollStreams(pollId: string): PollStreams {
    let poll = this.polls.get(pollId);
    if (poll) return poll;
    const created: PollStreams = {
      streams: new Set(),
      unsubscribe: this.ctx.live.subscribe(pollId, () => this.changed(pollId)),
      heartbeat: setInterval(() => {
        for (const s of created.streams) this.write(s, ': heartbeat\n\n');
        void this.pushIfTimePassed(pollId, created);
      }, this.settings.heartbeatMs),
      sending: false,
      again: false,
      lastPushAt: 0,
      openedAt: Date.now(),
      timer: undefined,
    };
    created.unsubscribe.catch((err: unknown) => {
      // No subscription (Redis away): these streams would never hear of a change. End them
      // (their clients reconnect) and forget the poll, so the next stream subscribes afresh.
      this.ctx.logger.warn('SSE subscribe failed', { err });
      if (this.polls.get(pollId) === created) this.polls.delete(pollId);
      clearInterval(created.heartbeat);
      for (const s of created.streams) s.sink.close();
    });
    created.heartbeat.unref();
    poll = created;
    this.polls.set(pollId, poll);
    return poll;
  }

  /**
   * Pushes the results when the poll's `starts_at` or `ends_at` passed since its last push (its
   * status changes then, and `after_close` or `after_vote` results become everyone's:
   * docs/polls.md, "Result visibility"), so they show within one heartbeat. One poll read per
   * heartbeat and poll with viewers (from its Redis copy); a failure waits for the next one.
   */
  private async pushIfTimePassed(pollId: string, poll: PollStreams): Promise<void> {
    const since = poll.lastPushAt || poll.openedAt;
    const doc = await this.ctx.polls.load(pollId).catch(() => null);
    if (!doc || this.polls.get(pollId) !== poll) return;
    const now = Date.now();
    const passed = [doc.settings.starts_at, doc.settings.ends_at].some((t) => {
      const at = t ? Date.parse(t) : NaN;
      return at > since && at <= now;
    });
    if (passed) this.changed(pollId);
  }

  private close(pollId: string, stream: Stream): void {
    const poll = this.polls.get(pollId);
    if (!poll || !poll.streams.delete(stream) || poll.streams.size) return;
    this.polls.delete(pollId);
    clearInterval(poll.heartbeat);
    if (poll.timer) clearTimeout(poll.timer);
    void poll.unsubscribe.then((off) => off()).catch(() => undefined);
  }

  /** A change was announced: push now, or when the poll's spacing allows (once for many). */
  private changed(pollId: string): void {
    const poll = this.polls.get(pollId);
    if (!poll || poll.timer) return;
    const spacing = (poll.streams.size / this.settings.writesPerSecond) * 1000;
    const wait = poll.lastPushAt + spacing - Date.now();
    if (wait <= 0) return void this.push(pollId, poll);
    poll.timer = setTimeout(() => {
      poll.timer = undefined;
      void this.push(pollId, poll);
    }, wait);
  }

  private async push(pollId: string, poll: PollStreams): Promise<void> {
    if (poll.sending) {
      poll.again = true;
      return;
    }
    poll.sending = true;
    try {
      do {
        poll.again = false;
        poll.lastPushAt = Date.now();
        await this.pushOnce(pollId, poll);
      } while (poll.again && this.polls.get(pollId) === poll);
    } catch (err) {
      this.ctx.logger.warn('SSE push failed', { err });
    } finally {
      poll.sending = false;
    }
  }

  /**
   * Reads the results once per distinct view and writes them to every stream of that view:
   * streams are grouped by reader; a group whose reader sees full statistics (per the poll as
   * the last read found it) gets the full results already read for another such group.
   */
  private async pushOnce(pollId: string, poll: PollStreams): Promise<void> {
    const byReader = new Map<string, Stream[]>();
    for (const s of poll.streams) {
      const key = s.reader?.key ?? '';
      const list = byReader.get(key);
      if (list) list.push(s);
      else byReader.set(key, [s]);
    }
    let full: RenderedResults | undefined;
    for (const streams of byReader.values()) {
      const reader = streams[0]!.reader;
      const known = this.ctx.resultsCache.get(pollId)?.poll;
      if (full && known && seesStats(known, reader) === true) {
        this.deliver(streams, full);
        continue;
      }
      const results = await readResults(this.ctx, pollId, reader, { fresh: true });
      this.deliver(streams, results);
      if (!results) return;
      const now = this.ctx.resultsCache.get(pollId)?.poll;
      if (now && seesStats(now, reader) === true) full = results;
    }
  }

  /**
   * Writes one results event (or the `deleted` event and the end) to each stream: encoded once,
   * in slices of 250 streams per turn of the event loop so other requests interleave.
   */
  private deliver(streams: Stream[], results: RenderedResults | null): void {
    if (!results) {
      for (const s of streams) s.sink.close('event: deleted\ndata: {}\n\n');
      return;
    }
    const event = Buffer.from(`event: results\ndata: ${results.dataJson}\n\n`);
    const writeSlice = (from: number) => {
      const to = Math.min(streams.length, from + 250);
      for (let i = from; i < to; i++) this.write(streams[i]!, event);
      if (to < streams.length) setImmediate(writeSlice, to);
    };
    writeSlice(0);
  }

  private write(stream: Stream, event: Buffer | string): void {
    const { sink } = stream;
    if (sink.closed) return;
    if (sink.full) {
      if (typeof event !== 'string') stream.waiting = event; // heartbeats (strings) are not kept
      return;
    }
    sink.write(event);
  }
}
