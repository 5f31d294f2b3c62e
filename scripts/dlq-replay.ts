import { parseArgs } from 'node:util';
import { countMessages, replayDeadLetters } from '@fieldhouse/messaging';

/**
 * `npm run dlq -- --queue events.email [--replay] [--limit 100]`: shows how many dead letters a
 * consumer queue holds and, with --replay, moves them back to the queue (`AMQP_URL`, prefix
 * included in the queue name).
 */
const { values } = parseArgs({
  options: {
    queue: { type: 'string' },
    replay: { type: 'boolean', default: false },
    limit: { type: 'string', default: '1000' },
  },
});
if (!values.queue) {
  console.error('usage: npm run dlq -- --queue <queue> [--replay] [--limit N]');
  process.exit(2);
}
const url = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
console.log(`${values.queue}.dlq holds ${await countMessages(url, `${values.queue}.dlq`)} message(s)`);
if (values.replay) {
  const { replayed } = await replayDeadLetters(url, values.queue, Number(values.limit));
  console.log(`replayed ${replayed} message(s) to ${values.queue}`);
}
