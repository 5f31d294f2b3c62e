import request from 'supertest';

let counter = 0;

/** Registers a new user through the gateway; resolves with its token, id and e-mail. */
export async function registerUser(gatewayUrl: string, name = 'Test User') {
  const email = `user${Date.now()}${counter++}@example.test`;
  const password = 'correct horse battery';
  const res = await request(gatewayUrl).post('/api/v1/register').send({ name, email, password }).expect(201);
  const body = res.body as { token: string; user: { id: number; name: string; email: string } };
  return { token: body.token, id: body.user.id, email, password, name };
}

/**
 * Requests to the gateway as the holder of `token` (a bearer token), or anonymous without one:
 * supertest tests, so `.send()`, `.expect()`... chain on.
 */
export function gatewayClient(gatewayUrl: string, token?: string) {
  const call = (method: 'get' | 'post' | 'put' | 'delete', path: string) => {
    const req = request(gatewayUrl)[method](path);
    return token ? req.auth(token, { type: 'bearer' }) : req;
  };
  return {
    get: (path: string) => call('get', path),
    post: (path: string) => call('post', path),
    put: (path: string) => call('put', path),
    delete: (path: string) => call('delete', path),
  };
}
