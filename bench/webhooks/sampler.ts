/**
 * Where the webhook backlog of `npm run bench:webhooks` sits while a phase runs, sampled every
 * `everyMs`: rows in the outbox (not yet relayed), ready messages in the worker's two queues
 * (events to fan out, delivery jobs), deliveries pending in the delivery log, and requests the
 * receiver got. The stage in front of which the backlog grows is the one that limits throughput.
 */
import type { Knex } from '@fieldhouse/db';
import { nowMs } from './common.ts';
import { WEBHOOK_QUEUES, type RabbitProbe } from './rabbit.ts';

export interface BacklogSample {
  /** Seconds since the phase started. */
  t: number;
  outbox: number;
  fanOutQueue: number;
  deliveryQueue: number;
  pending: number;
  received: number;
}

export class BacklogSampler {
  readonly samples: BacklogSample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> | undefined;

  private readonly db: Knex;
  private readonly probe: RabbitProbe;
  private readonly receiverUrl: string;

  constructor(db: Knex, probe: RabbitProbe, receiverUrl: string) {
    this.db = db;
    this.probe = probe;
    this.receiverUrl = receiverUrl;
  }

  /** One sample now. */
  private async sample(since: number): Promise<BacklogSample> {
    const [[outbox], [pending], fanOut, deliveries, count] = await Promise.all([
      this.db('outbox').count({ n: '*' }) as Promise<Array<{ n: number }>>,
      this.db('webhook_deliveries').where({ status: 'pending' }).count({ n: '*' }) as Promise<
        Array<{ n: number }>
      >,
      this.probe.queue(WEBHOOK_QUEUES.fanOut),
      this.probe.queue(WEBHOOK_QUEUES.deliveries),
      fetch(`${this.receiverUrl}/count`).then((r) => r.json() as Promise<{ received: number }>),
    ]);
    return {
      t: (nowMs() - since) / 1000,
      outbox: Number(outbox!.n),
      fanOutQueue: fanOut?.messages ?? NaN,
      deliveryQueue: deliveries?.messages ?? NaN,
      pending: Number(pending!.n),
      received: count.received,
    };
  }

  /** Samples every `everyMs` from now on, times counted from `since`. */
  start(since: number, everyMs = 2_000): void {
    this.timer = setInterval(() => {
      if (this.sampling) return;
      this.sampling = this.sample(since)
        .then((s) => void this.samples.push(s))
        .catch(() => undefined)
        .finally(() => (this.sampling = undefined));
    }, everyMs);
  }

  async stop(): Promise<BacklogSample[]> {
    clearInterval(this.timer);
    await this.sampling;
    return this.samples;
  }
}

/** Prints the samples, at most `rows` of them (evenly spread), as a table. */
export function printBacklog(samples: BacklogSample[], rows = 16): void {
  const step = Math.max(1, Math.ceil(samples.length / rows));
  const cols = ['t (s)', 'outbox', 'q.webhooks', 'q.deliveries', 'pending', 'received'];
  console.log(`  ${cols.map((c) => c.padStart(12)).join('')}`);
  for (let i = 0; i < samples.length; i += step) {
    const s = samples[i]!;
    const values = [s.t.toFixed(0), s.outbox, s.fanOutQueue, s.deliveryQueue, s.pending, s.received];
    console.log(`  ${values.map((v) => String(v).padStart(12)).join('')}`);
  }
}
