import amqp, { type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, Options } from 'amqplib';
import type { Logger } from '@fieldhouse/logger';
import { Exchanges, type Envelope } from '@fieldhouse/contracts';

export interface BrokerOptions {
  /** `amqp://user:pass@host:5672/vhost`. */
  url: string;
  logger: Logger;
  /** Connection name shown in the RabbitMQ management UI. */
  name: string;
  /**
   * Prefix of every exchange and queue name this process declares (`''` in production;
   * tests use a random one so runs never see each other's messages).
   */
  prefix?: string;
  /** Longest wait for a publisher confirm, including time spent reconnecting (ms). */
  publishTimeoutMs?: number;
}

/**
 * One reconnecting RabbitMQ connection (amqp-connection-manager over amqplib) with a confirm
 * channel for publishing. The topic exchanges of design.md are declared on every (re)connect.
 */
export class Broker {
  readonly connection: AmqpConnectionManager;
  readonly prefix: string;
  private readonly publisher: ChannelWrapper;
  private readonly logger: Logger;
  private readonly publishTimeoutMs: number;

  constructor(opts: BrokerOptions) {
    this.logger = opts.logger;
    this.prefix = opts.prefix ?? '';
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 10_000;
    this.connection = amqp.connect([opts.url], {
      heartbeatIntervalInSeconds: 15,
      reconnectTimeInSeconds: 2,
      connectionOptions: { clientProperties: { connection_name: opts.name } },
    });
    this.connection.on('connect', () => this.logger.info('connected to RabbitMQ'));
    this.connection.on('disconnect', ({ err }) =>
      this.logger.warn('disconnected from RabbitMQ; reconnecting', { error: err?.message }),
    );
    this.publisher = this.connection.createChannel({
      name: `${opts.name}-publisher`,
      confirm: true,
      publishTimeout: this.publishTimeoutMs,
      setup: (ch: ConfirmChannel) => this.declareExchanges(ch),
    });
  }

  /** The name of an exchange or queue with this broker's prefix. */
  name(base: string): string {
    return this.prefix + base;
  }

  /** Declares the durable topic exchanges of every producing service. */
  async declareExchanges(ch: ConfirmChannel): Promise<void> {
    for (const ex of Object.values(Exchanges))
      await ch.assertExchange(this.name(ex), 'topic', { durable: true });
  }

  /** Resolves once connected (rejects after `timeoutMs`). */
  async waitForConnect(timeoutMs = 10_000): Promise<void> {
    await Promise.race([
      this.publisher.waitForConnect(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('RabbitMQ connection timed out')), timeoutMs).unref(),
      ),
    ]);
  }

  isConnected(): boolean {
    return this.connection.isConnected();
  }

  /**
   * Publishes an envelope as a persistent JSON message and resolves when the broker confirms it.
   * While disconnected the message waits in memory up to the publish timeout, then rejects.
   */
  async publish(exchange: string, message: Envelope, options: Options.Publish = {}): Promise<void> {
    await this.publisher.publish(this.name(exchange), message.type, Buffer.from(JSON.stringify(message)), {
      persistent: true,
      contentType: 'application/json',
      messageId: message.id,
      type: message.type,
      timestamp: Math.floor(Date.parse(message.time) / 1000),
      ...options,
    });
  }

  /** Publishes raw content straight to a queue (retry and dead-letter queues), with confirm. */
  async sendToQueue(queue: string, content: Buffer, options: Options.Publish): Promise<void> {
    await this.publisher.sendToQueue(queue, content, { persistent: true, ...options });
  }

  async close(): Promise<void> {
    await this.publisher.close().catch(() => undefined);
    await this.connection.close().catch(() => undefined);
  }
}
