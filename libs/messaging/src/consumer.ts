import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@fieldhouse/logger';
import { envelopeSchema, type Envelope } from '@fieldhouse/contracts';
import type { Broker } from './broker.ts';

/** Thrown by a handler when retrying cannot help: the message goes straight to the dead-letter queue. */
export class PermanentError extends Error {
  override name = 'PermanentError';
}

export interface HandlerContext {
  /** 1 on first delivery, then 2, 3... after each retry. */
  attempt: number;
  raw: ConsumeMessage;
}

export interface ConsumerOptions {
  /** Queue name (without the broker prefix), e.g. `collection.users`. */
  queue: string;
  /** Exchange and routing-key patterns bound to the queue. */
  bindings: Array<{ exchange: string; pattern: string }>;
  handler: (message: Envelope, ctx: HandlerContext) => Promise<void>;
  /**
   * Delay before each retry, in ms: `[1000, 5000, 30000]` means 4 attempts in all, then the
   * dead-letter queue. Each delay is its own queue with a TTL that dead-letters back.
   */
  retryDelaysMs?: number[];
  /** Unacknowledged messages in flight at once. */
  prefetch?: number;
  logger: Logger;
}

/** Names of the queues around a consumer queue. */
export function queueNames(broker: Broker, queue: string, delays: number[]) {
  const main = broker.name(queue);
  return {
    main,
    retries: delays.map((_, i) => `${main}.retry.${i + 1}`),
    deadLetter: `${main}.dlq`,
  };
}

const ATTEMPT_HEADER = 'x-attempt';

/**
 * Consumes a durable queue with manual acks, bounded retries with backoff and a dead-letter
 * queue (design.md, "Messaging"):
 * - handler resolves: ack;
 * - handler throws: the message is re-sent to the retry queue of its attempt (which holds it
 *   for that delay then dead-letters it back to the main queue), then acked;
 * - attempts exhausted, `PermanentError`, or a body that is not a valid envelope: the message
 *   goes to `<queue>.dlq` with `x-error` and `x-failed-at` headers, then acked.
 * Topology is declared on every reconnect; the consumer resumes by itself.
 */
export async function startConsumer(
  broker: Broker,
  opts: ConsumerOptions,
): Promise<{ close: () => Promise<void> }> {
  const delays = opts.retryDelaysMs ?? [1_000, 5_000, 30_000];
  const names = queueNames(broker, opts.queue, delays);
  const channel: ChannelWrapper = broker.connection.createChannel({
    name: `${opts.queue}-consumer`,
    confirm: true,
    setup: async (ch: ConfirmChannel) => {
      await broker.declareExchanges(ch);
      await ch.assertQueue(names.main, { durable: true });
      for (const b of opts.bindings) await ch.bindQueue(names.main, broker.name(b.exchange), b.pattern);
      for (const [i, retry] of names.retries.entries()) {
        await ch.assertQueue(retry, {
          durable: true,
          messageTtl: delays[i],
          deadLetterExchange: '',
          deadLetterRoutingKey: names.main,
        });
      }
      await ch.assertQueue(names.deadLetter, { durable: true });
      await ch.prefetch(opts.prefetch ?? 10);
    },
  });

  const deadLetter = async (msg: ConsumeMessage, reason: string) => {
    opts.logger.error('message dead-lettered', {
      queue: names.main,
      messageId: msg.properties.messageId,
      reason,
    });
    await broker.sendToQueue(names.deadLetter, msg.content, {
      ...msg.properties,
      headers: {
        ...msg.properties.headers,
        'x-error': reason.slice(0, 1000),
        'x-failed-at': new Date().toISOString(),
      },
    });
  };

  const onMessage = async (msg: ConsumeMessage | null) => {
    if (!msg) return;
    const attempt = Number(msg.properties.headers?.[ATTEMPT_HEADER] ?? 1);
    try {
      let message: Envelope;
      try {
        message = JSON.parse(msg.content.toString('utf8')) as Envelope;
      } catch {
        throw new PermanentError('body is not JSON');
      }
      const { error } = envelopeSchema.validate(message, { allowUnknown: true });
      if (error) throw new PermanentError(`not a valid envelope: ${error.message}`);
      await opts.handler(message, { attempt, raw: msg });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      try {
        if (err instanceof PermanentError || attempt > delays.length) {
          await deadLetter(msg, reason);
        } else {
          opts.logger.warn('message handling failed; will retry', { queue: names.main, attempt, reason });
          await broker.sendToQueue(names.retries[attempt - 1]!, msg.content, {
            ...msg.properties,
            headers: {
              ...msg.properties.headers,
              [ATTEMPT_HEADER]: attempt + 1,
              'x-error': reason.slice(0, 1000),
            },
          });
        }
      } catch (publishErr) {
        // Could not park it: leave it unacked for redelivery rather than lose it.
        opts.logger.error('could not re-route failed message; requeueing', { err: publishErr });
        channel.nack(msg, false, true);
        return;
      }
    }
    channel.ack(msg);
  };

  await channel.consume(names.main, (msg) => void onMessage(msg), { noAck: false });
  // Resolves once the topology is declared, so a message published next is routed to the queue.
  await channel.waitForConnect();
  return { close: () => channel.close() };
}
