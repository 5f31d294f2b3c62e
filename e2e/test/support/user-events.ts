import amqplib from 'amqplib';
import type { Envelope, UserPayload } from '@fieldhouse/contracts';
import { backingUrl } from '@fieldhouse/testkit';
import type { TestStack } from './stack.ts';

/** The gateway's user events seen by a test, in arrival order, and how to stop listening. */
export interface UserEvents {
  received: Envelope<UserPayload>[];
  close: () => Promise<void>;
}

/**
 * Listens to the stack's identity events (`user.*` on the `<AMQP_PREFIX>identity` topic
 * exchange, docs/events.md) with an exclusive queue of its own, so a test can check what the
 * gateway published; `close` ends the connection (the queue goes with it).
 */
export async function listenToUserEvents(stack: TestStack): Promise<UserEvents> {
  const conn = await amqplib.connect(await backingUrl('amqp'));
  const ch = await conn.createChannel();
  const exchange = `${stack.config.AMQP_PREFIX}identity`;
  await ch.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await ch.assertQueue('', { exclusive: true });
  await ch.bindQueue(queue, exchange, 'user.*');
  const received: Envelope<UserPayload>[] = [];
  await ch.consume(
    queue,
    (msg) => {
      if (msg) received.push(JSON.parse(msg.content.toString()) as Envelope<UserPayload>);
    },
    { noAck: true },
  );
  return { received, close: () => conn.close() };
}
