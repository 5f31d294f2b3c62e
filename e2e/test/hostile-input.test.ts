import { expect } from 'chai';
import { expectProblemNaming } from '@fieldhouse/testkit';
import request from 'supertest';
import { startStack, type TestStack } from './support/stack.ts';
import { gatewayClient, registerUser } from './support/users.ts';

/**
 * Issue 14, item 5 through the gateway: NUL bytes, unpaired surrogates, ids past the integer
 * columns and undecodable paths get a 4xx problem naming the field, in the gateway's own
 * identity routes and in every proxied service, signed in or not.
 */
describe('e2e: hostile inputs through the gateway are 4xx problems naming the field', () => {
  let stack: TestStack;
  let alice: Awaited<ReturnType<typeof registerUser>>;
  before(async () => {
    stack = await startStack({
      gatewayEnv: { RATE_LIMIT_IP: '1000000', RATE_LIMIT_USER: '1000000', RATE_LIMIT_LOGIN: '1000000' },
    });
    alice = await registerUser(stack.gatewayUrl);
  });
  after(async () => {
    await stack?.stop();
  });

  it('refuses a NUL character or an unpaired surrogate in the login e-mail, registration and token names', async () => {
    const gw = () => request(stack.gatewayUrl);
    for (const path of ['/api/v1/login', '/api/login']) {
      expectProblemNaming(
        await gw().post(path).send({ email: 'a\u0000@example.test', password: 'x' }),
        422,
        'email',
      );
      expectProblemNaming(
        await gw().post(path).send({ email: alice.email, password: 'p\ud800' }),
        422,
        'password',
      );
    }
    expectProblemNaming(
      await gw()
        .post('/api/v1/register')
        .send({ name: 'N\u0000', email: 'n@example.test', password: 'long enough pw' }),
      422,
      'name',
    );
    expectProblemNaming(
      await gatewayClient(stack.gatewayUrl, alice.token).post('/api/v1/tokens').send({ name: '\udc00' }),
      422,
      'name',
    );
  });

  it('refuses NUL in workspace names, event names and invite noms of the proxied services', async () => {
    const api = gatewayClient(stack.gatewayUrl, alice.token);
    expectProblemNaming(await api.post('/api/v1/workspaces').send({ name: 'W\u0000' }), 422, 'name');
    const event = { start_date: '2030-06-01T18:30:00', location: 'Lyon' };
    expectProblemNaming(await api.post('/api/events').send({ ...event, name: 'E\u0000' }), 422, 'name');
    const id = (
      await api
        .post('/api/events')
        .send({ ...event, name: 'E' })
        .expect(201)
    ).body.id as string;
    expectProblemNaming(
      await api.post(`/api/events/${id}/invites`).send({ nom: '\u0000', email: 'g@example.test' }),
      422,
      'nom',
    );
  });

  it('answers ids of 2^31 and more with 4xx naming the parameter, signed in and anonymous', async () => {
    for (const token of [alice.token, undefined]) {
      const api = gatewayClient(stack.gatewayUrl, token);
      const res = await api.get('/api/v1/workspaces/2147483648');
      if (token) expectProblemNaming(res, 404, 'workspaceId');
      else expect(res.status).to.be.within(400, 499);
    }
    const api = gatewayClient(stack.gatewayUrl, alice.token);
    expectProblemNaming(await api.get('/api/v1/projects/2147483648/submissions'), 404, 'projectId');
    expect((await api.delete('/api/v1/tokens/18446744073709551616')).status).to.equal(404);
  });

  it('answers paths that are not valid percent-encoded UTF-8 with 400 naming the path, in all three services and the gateway', async () => {
    const paths = ['/api/events/%ED%A0%80', '/api/polls/%ED%A0%80', '/api/v1/workspaces/%ED%A0%80'];
    for (const path of paths)
      expectProblemNaming(await gatewayClient(stack.gatewayUrl, alice.token).get(path), 400, 'path');
    for (const path of paths) {
      // anonymous: 400, or the 401 of a service that wants a signed-in caller first
      const res = await gatewayClient(stack.gatewayUrl).get(path);
      expect([400, 401], path).to.include(res.status);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    }
    expectProblemNaming(
      await gatewayClient(stack.gatewayUrl, alice.token).delete('/api/v1/tokens/%ED%A0%80'),
      400,
      'path',
    );
  });
});
