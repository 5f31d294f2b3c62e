import { parseArgs } from 'node:util';
import { Joi, backingEnv, loadConfig } from '@fieldhouse/config';
import { createKnex, migrateLatest } from '@fieldhouse/db';
import { createLogger } from '@fieldhouse/logger';
import { Broker, OutboxRelay } from '@fieldhouse/messaging';
import { identityDatabaseUrl } from '../config.ts';
import { IdentityService } from '../identity/identity-service.ts';
import { PasswordHasher, passwordTooLong } from '../identity/passwords.ts';
import { migrations } from '../migrations/index.ts';

/**
 * `npm run user:create -- --email E --password P --name N`: creates a user, or updates the name
 * and password of the user with that e-mail (idempotent). The `user.*` event goes through the
 * outbox; this command relays it before exiting when RabbitMQ answers, else the gateway will.
 */
const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
});
const input = Joi.object({
  email: Joi.string().trim().email({ tlds: false }).required(),
  password: Joi.string().min(8).required(),
  name: Joi.string().trim().min(1).max(255).required(),
}).validate(values, { abortEarly: false });
if (input.error || passwordTooLong(values.password ?? '')) {
  console.error(
    'usage: npm run user:create -- --email E --password P --name N\n' +
      (input.error?.details.map((d) => `  ${d.message}`).join('\n') ?? '  password: at most 72 bytes'),
  );
  process.exit(2);
}
const env = loadConfig(
  Joi.object<{ DATABASE_URL: string; AMQP_URL: string; AMQP_PREFIX: string; BCRYPT_ROUNDS: number }>({
    DATABASE_URL: identityDatabaseUrl,
    AMQP_URL: backingEnv.AMQP_URL,
    AMQP_PREFIX: backingEnv.AMQP_PREFIX,
    BCRYPT_ROUNDS: Joi.number().integer().min(12).default(12),
  }),
);
const logger = createLogger({ service: 'user-create', level: 'warn' });
await migrateLatest(env.DATABASE_URL, migrations);
const db = createKnex(env.DATABASE_URL, { poolMax: 2 });
const identity = new IdentityService({
  db,
  hasher: new PasswordHasher(env.BCRYPT_ROUNDS),
  tokenExpirationMinutes: 0,
});
const { user, created } = await identity.upsert(
  input.value as { email: string; password: string; name: string },
);
console.log(`${created ? 'created' : 'updated'} user ${user.id} <${user.email}>`);

const broker = new Broker({
  url: env.AMQP_URL,
  logger,
  name: 'user-create',
  prefix: env.AMQP_PREFIX,
  publishTimeoutMs: 3_000,
});
try {
  await broker.waitForConnect(3_000);
  await new OutboxRelay({ knex: db, table: 'outbox', broker, logger }).drain();
} catch {
  console.log('RabbitMQ unreachable: the gateway will publish the user event when it runs');
}
await broker.close();
await db.destroy();
