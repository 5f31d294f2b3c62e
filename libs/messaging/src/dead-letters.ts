import amqplib from 'amqplib';

export interface ReplayResult {
  /** How many dead letters went back to the main queue. */
  replayed: number;
}

/**
 * Moves up to `limit` messages from `<queue>.dlq` back to `<queue>` (the full, prefixed queue
 * name), resetting their attempt count; each is acked on the dead-letter queue only after the
 * broker confirmed the republish, so none is lost if this stops half-way.
 */
export async function replayDeadLetters(url: string, queue: string, limit = 1000): Promise<ReplayResult> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createConfirmChannel();
    let replayed = 0;
    while (replayed < limit) {
      const msg = await ch.get(`${queue}.dlq`, { noAck: false });
      if (!msg) break;
      const headers = { ...msg.properties.headers };
      delete headers['x-attempt'];
      headers['x-replayed-at'] = new Date().toISOString();
      ch.sendToQueue(queue, msg.content, { ...msg.properties, headers, persistent: true });
      await ch.waitForConfirms();
      ch.ack(msg);
      replayed++;
    }
    await ch.close();
    return { replayed };
  } finally {
    await conn.close();
  }
}

/** Counts the messages waiting in a queue (e.g. a dead-letter queue), without consuming them. */
export async function countMessages(url: string, queue: string): Promise<number> {
  const conn = await amqplib.connect(url);
  try {
    const ch = await conn.createChannel();
    const { messageCount } = await ch.checkQueue(queue);
    await ch.close();
    return messageCount;
  } finally {
    await conn.close();
  }
}
