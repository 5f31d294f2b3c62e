import pg from 'pg';
import type { Logger } from '@fieldhouse/logger';

/**
 * Calls `onNotify` on every PostgreSQL notification of `channel` (LISTEN on a connection of its
 * own, reconnecting after 1 s when it drops, and calling `onNotify` once (re)connected, since
 * notifications sent meanwhile were missed). Used to wake an outbox relay as soon as a trigger
 * wrote to the outbox.
 */
export function listenTo(
  url: string,
  channel: string,
  onNotify: () => void,
  logger: Logger,
): { close: () => Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const reconnectSoon = (err?: unknown) => {
    if (closed || timer) return;
    if (err) logger.warn('LISTEN connection lost; reconnecting in 1 s', { channel, err });
    void client?.end().catch(() => undefined);
    client = undefined;
    timer = setTimeout(() => {
      timer = undefined;
      connect();
    }, 1000);
    timer.unref();
  };
  const connect = () => {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('notification', () => onNotify());
    c.on('error', (err) => reconnectSoon(err));
    c.on('end', () => client === c && reconnectSoon());
    c.connect()
      .then(() => c.query(`LISTEN "${channel.replaceAll('"', '""')}"`))
      .then(() => onNotify())
      .catch((err: unknown) => client === c && reconnectSoon(err));
  };
  connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
