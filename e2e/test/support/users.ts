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
