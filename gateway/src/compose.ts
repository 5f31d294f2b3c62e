import type { RequestListener } from 'node:http';
import { createKnex } from '@fieldhouse/db';
import type { Lifecycle } from '@fieldhouse/http';
import type { Logger } from '@fieldhouse/logger';
import { createMailer } from '@fieldhouse/mail';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { createGatewayApp } from './app.ts';
import type { GatewayConfig } from './config.ts';
import { accountMailer } from './identity/account-mail.ts';
import { AccountService } from './identity/account-service.ts';
import { IdentityService } from './identity/identity-service.ts';
import { PasswordHasher } from './identity/passwords.ts';
import { SessionsRepo } from './identity/sessions-repo.ts';
import { TokenCache } from './identity/token-cache.ts';
import { loadExtraPublicKeys, loadSigningKey } from './proxy/signing-key.ts';
import { createRedis, readyOrTimeout } from './redis.ts';

export interface Gateway {
  /** The HTTP request listener (two Express apps behind a path dispatcher, see app.ts). */
  app: RequestListener;
  lifecycle: Lifecycle;
  identity: IdentityService;
  /** Profile, password change and reset, e-mail verification (docs/identity.md, "Accounts"). */
  accounts: AccountService;
  relay: OutboxRelay;
  tokenCache: TokenCache;
  /** Stops background work and closes every connection (after the HTTP server stopped). */
  close: () => Promise<void>;
}

/**
 * Wires the gateway from its configuration: PostgreSQL (identity), Redis (rate limits),
 * RabbitMQ (outbox relay of `user.*` events), the signing key, and the Express app.
 * Used by `main.ts` and by the end-to-end tests.
 */
export async function composeGateway(config: GatewayConfig, logger: Logger): Promise<Gateway> {
  const db = createKnex(config.DATABASE_URL, { poolMax: 20 });
  const redis = createRedis(config.REDIS_URL, logger);
  await readyOrTimeout(redis, 2_000);
  const broker = new Broker({ url: config.AMQP_URL, logger, name: 'gateway', prefix: config.AMQP_PREFIX });
  const relay = new OutboxRelay({ knex: db, table: 'outbox', broker, logger });
  const hasher = new PasswordHasher(config.BCRYPT_ROUNDS);
  const identity = new IdentityService({
    db,
    hasher,
    tokenExpirationMinutes: config.TOKEN_EXPIRATION_MINUTES,
    onOutboxWrite: () => relay.kick(),
  });
  const sessions = new SessionsRepo(db, config.SESSION_LIFETIME_MINUTES);
  // Account e-mails (password reset, e-mail verification) go straight to SMTP (docs/identity.md).
  const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM);
  const mails = accountMailer(mailer, logger);
  const accounts = new AccountService({
    db,
    hasher,
    sessions,
    mailer: mails,
    logger,
    publicUrl: config.PUBLIC_URL,
    onOutboxWrite: () => relay.kick(),
  });
  const tokenCache = new TokenCache(redis, logger, config.TOKEN_CACHE_SECONDS * 1000, config.REDIS_PREFIX);
  const lifecycle: Lifecycle = { shuttingDown: false };
  const http = createGatewayApp({
    config,
    logger,
    db,
    redis,
    identity,
    sessions,
    accounts,
    tokenCache,
    signingKey: loadSigningKey(config.privateKeyPem),
    extraPublicKeys: loadExtraPublicKeys(config.INTERNAL_JWT_EXTRA_PUBLIC_KEYS.replaceAll('\\n', '\n')),
    lifecycle,
    readiness: [
      { name: 'postgres', check: () => db.raw('select 1') },
      { name: 'redis', check: () => redis.ping(), critical: false },
      {
        name: 'rabbitmq',
        check: async () => broker.isConnected() || Promise.reject(new Error('down')),
        critical: false,
      },
    ],
  });
  relay.start();
  const purge = setInterval(() => {
    sessions.purgeExpired().catch((err: unknown) => logger.warn('session purge failed', { err }));
    accounts.links.purgeExpired().catch((err: unknown) => logger.warn('account link purge failed', { err }));
  }, 10 * 60_000);
  purge.unref();

  return {
    app: http.listener,
    lifecycle,
    identity,
    accounts,
    relay,
    tokenCache,
    close: async () => {
      clearInterval(purge);
      await mails.idle();
      mailer.close();
      await relay.stop();
      await http.close();
      await tokenCache.close();
      await broker.close();
      await redis.close().catch(() => undefined);
      await db.destroy();
    },
  };
}
