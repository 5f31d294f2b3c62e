import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@fieldhouse/logger';
import { envelopeSchema, type Envelope } from '@fieldhouse/contracts';
import { isStoreUnavailableError } from '@fieldhouse/problem';
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
  /**
   * Longest a handler may take, ms (default 120,000; 0: no limit, for jobs that bound their own
   * time). A handler still running then is taken as waiting on a hung store: the message is
   * given back, parked in the longest retry queue without spending an attempt, and acked, so it
   * is neither held until RabbitMQ's acknowledgement timeout closes the channel (30 minutes)
   * nor dead-lettered by an outage (docs/messaging.md, "A hung store"). The late handler's
   * outcome is ignored; consumers are idempotent, so the redelivery is safe.
   */
  handlerTimeoutMs?: number;
  /**
   * Whether a handler's failure says a store is unreachable or not answering rather than that
   * the message is at fault (default {@link isStoreUnavailableError}): such a message is parked
   * like a timed-out one, without spending an attempt, so an outage of a minute does not
   * dead-letter it after its three quick retries.
   */
  isUnavailable?: (err: unknown) => boolean;
  logger: Logger;
}

/** Raised when a handler did not finish within `handlerTimeoutMs`. */
class HandlerTimeoutError extends Error {
  override name = 'HandlerTimeoutError';
}

/** Names of the queues around a consumer queue. */
function queueNames(broker: Broker, queue: string, delays: number[]) {
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
 *   goes to `<queue>.dlq` with `x-error` and `x-failed-at` headers, then acked;
 * - handler still running after `handlerTimeoutMs`, or failing because a store is unreachable
 *   or not answering (`isUnavailable`): the message goes to the longest retry queue with the
 *   same attempt number (a hung store neither holds it nor dead-letters it).
 * Topology is declared on every reconnect; the consumer resumes by itself.
 */
export async function startConsumer(
  broker: Broker,
  opts: ConsumerOptions,
): Promise<{ close: () => Promise<void> }> {
  const delays = opts.retryDelaysMs ?? [1_000, 5_000, 30_000];
  const handlerTimeoutMs = opts.handlerTimeoutMs ?? 120_000;
  const isUnavailable = opts.isUnavailable ?? isStoreUnavailableError;
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
      await withHandlerDeadline(opts.handler(message, { attempt, raw: msg }), handlerTimeoutMs);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      try {
        if ((err instanceof HandlerTimeoutError || isUnavailable(err)) && names.retries.length) {
          // Not the message's fault: back off for the longest delay, same attempt number.
          opts.logger.warn('a store did not answer the message handler; giving the message back', {
            queue: names.main,
            attempt,
            reason,
          });
          await broker.sendToQueue(names.retries.at(-1)!, msg.content, {
            ...msg.properties,
            headers: { ...msg.properties.headers, [ATTEMPT_HEADER]: attempt, 'x-error': reason },
          });
        } else if (err instanceof PermanentError || attempt > delays.length) {
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

/** `work`, or a {@link HandlerTimeoutError} once `ms` have passed without it settling (0: no limit). */
function withHandlerDeadline(work: Promise<void>, ms: number): Promise<void> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HandlerTimeoutError(`the handler did not finish within ${ms / 1000} s`)),
      ms,
    );
  });
  // A late failure of the abandoned handler must not become an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
