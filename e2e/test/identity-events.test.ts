import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import type { Envelope, UserPayload } from '@fieldhouse/contracts';
import { eventually } from '@fieldhouse/testkit';
import { startStack, type TestStack } from './support/stack.ts';
import { listenToUserEvents, type UserEvents } from './support/user-events.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `npm run user:create`'s script with the stack's identity database; resolves with its output. */
function userCreate(stack: TestStack, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', join(root, 'gateway/src/cli/user-create.ts'), ...args],
      {
        env: {
          ...process.env,
          DATABASE_URL: stack.config.DATABASE_URL,
          AMQP_URL: stack.config.AMQP_URL,
          AMQP_PREFIX: stack.config.AMQP_PREFIX,
        },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('identity events and the user:create CLI', () => {
  let stack: TestStack;
  let userEvents: UserEvents | undefined;
  let received: Envelope<UserPayload>[];

  before(async () => {
    stack = await startStack();
    userEvents = await listenToUserEvents(stack);
    received = userEvents.received;
  });
  after(async () => {
    await userEvents?.close();
    await stack?.stop();
  });

  it('publishes user.created through the outbox when someone registers', async () => {
    const res = await request(stack.gatewayUrl)
      .post('/api/v1/register')
      .send({ name: 'Event Person', email: 'event.person@example.test', password: 'password123' })
      .expect(201);
    const msg = await eventually(async () =>
      received.find((m) => m.type === 'user.created' && m.data.id === res.body.user.id),
    );
    expect(msg.source).to.equal('identity');
    expect(msg.data).to.include({ name: 'Event Person', email: 'event.person@example.test' });
    expect(msg.data).to.not.have.property('password_hash');
    const pending = await stack.identityDb('outbox').count<{ count: number }[]>({ count: '*' });
    expect(Number(pending[0]!.count)).to.equal(0);
  });

  it('creates a user from the CLI, then updates it idempotently by e-mail', async () => {
    const first = await userCreate(stack, [
      '--email',
      'Ops@Example.test',
      '--password',
      'first-password',
      '--name',
      'Ops',
    ]);
    expect(first.code, first.out).to.equal(0);
    expect(first.out).to.match(/created user \d+ <ops@example.test>/);
    await request(stack.gatewayUrl)
      .post('/api/login')
      .send({ email: 'ops@example.test', password: 'first-password' })
      .expect(200);

    const second = await userCreate(stack, [
      '--email',
      'ops@example.test',
      '--password',
      'second-password',
      '--name',
      'Operator',
    ]);
    expect(second.code, second.out).to.equal(0);
    expect(second.out).to.match(/updated user \d+/);
    const users = await stack.identityDb('users').where({ email: 'ops@example.test' });
    expect(users).to.have.length(1);
    expect(users[0].name).to.equal('Operator');
    await request(stack.gatewayUrl)
      .post('/api/login')
      .send({ email: 'ops@example.test', password: 'first-password' })
      .expect(401);
    await request(stack.gatewayUrl)
      .post('/api/login')
      .send({ email: 'ops@example.test', password: 'second-password' })
      .expect(200);
    await eventually(async () =>
      received.find((m) => m.type === 'user.updated' && m.data.name === 'Operator'),
    );

    const bad = await userCreate(stack, ['--email', 'not-an-email', '--password', 'x', '--name', '']);
    expect(bad.code).to.equal(2);
    expect(bad.out).to.contain('usage: npm run user:create');
  });
});
