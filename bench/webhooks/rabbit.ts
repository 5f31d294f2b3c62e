/**
 * The bench's own view of RabbitMQ (amqplib, one connection): whether the events worker
 * consumes its webhook queues yet, how many messages wait in them, and the removal of every
 * queue and exchange the run's processes declared under its prefix.
 */
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { Exchanges } from '@fieldhouse/contracts';

/** The events processes' queues (HTTP process: users; worker: e-mail and the two webhook queues). */
const QUEUE_BASES = ['events.users', 'events.email', 'events.webhooks', 'events.webhook-deliveries'];
/** The queues around each of them (libs/messaging `queueNames`): retries (at most 3 here) and dead letters. */
const AROUND = ['', '.retry.1', '.retry.2', '.retry.3', '.dlq'];

/** The two queues of the webhook pipeline: events to fan out, then delivery jobs. */
export const WEBHOOK_QUEUES = { fanOut: 'events.webhooks', deliveries: 'events.webhook-deliveries' } as const;

export class RabbitProbe {
  private readonly url: string;
  private readonly prefix: string;
  private connection: ChannelModel | undefined;
  private channel: Channel | undefined;

  constructor(url: string, prefix: string) {
    this.url = url;
    this.prefix = prefix;
  }

  /** A channel; a new one after a failed check closed the last (a missing queue closes it). */
  private async open(): Promise<Channel> {
    this.connection ??= await amqp.connect(this.url);
    if (!this.channel) {
      const ch = await this.connection.createChannel();
      ch.on('error', () => undefined);
      ch.on('close', () => {
        if (this.channel === ch) this.channel = undefined;
      });
      this.channel = ch;
    }
    return this.channel;
  }

  /** Ready messages and consumers of queue `base` (prefixed), or undefined while it does not exist. */
  async queue(base: string): Promise<{ messages: number; consumers: number } | undefined> {
    const ch = await this.open();
    try {
      const q = await ch.checkQueue(this.prefix + base);
      return { messages: q.messageCount, consumers: q.consumerCount };
    } catch {
      return undefined;
    }
  }

  /**
   * Resolves once both webhook queues have a consumer (the worker started); rejects after
   * `timeoutMs`, or as soon as `check` throws (the worker process exited).
   */
  async waitForWorker(check: () => void, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      check();
      const [a, b] = [await this.queue(WEBHOOK_QUEUES.fanOut), await this.queue(WEBHOOK_QUEUES.deliveries)];
      if (a?.consumers && b?.consumers) return;
      if (Date.now() > deadline) throw new Error('the events worker does not consume its webhook queues');
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Deletes every queue and exchange of the run (deleting a missing one is not an error in RabbitMQ). */
  async deleteRunTopology(): Promise<void> {
    for (const base of QUEUE_BASES)
      for (const tail of AROUND) await (await this.open()).deleteQueue(this.prefix + base + tail);
    for (const ex of Object.values(Exchanges)) await (await this.open()).deleteExchange(this.prefix + ex);
  }

  async close(): Promise<void> {
    await this.connection?.close().catch(() => undefined);
    this.connection = undefined;
    this.channel = undefined;
  }
}
