import { createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { loadSigningKey } from '@fieldhouse/gateway';
import { newSigningKeyPem, startStack, type TestStack } from './support/stack.ts';
import { registerUser } from './support/users.ts';

describe('gateway to service trust (phantom tokens)', () => {
  let stack: TestStack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('forwards the caller as a signed JWT: user, token id, method; anonymous callers have no user', async () => {
    const alice = await registerUser(stack.gatewayUrl, 'Alice Hopper');
    for (const path of ['/api/v1/_whoami', '/api/polls/_whoami', '/api/events/_whoami']) {
      const res = await request(stack.gatewayUrl).get(path).auth(alice.token, { type: 'bearer' }).expect(200);
      expect(res.body.data).to.include({
        userId: alice.id,
        name: 'Alice Hopper',
        email: alice.email,
        method: 'token',
      });
      expect(res.body.data.tokenId).to.equal(Number(alice.token.split('|')[0]));
      const anon = await request(stack.gatewayUrl).get(path).expect(200);
      expect(anon.body.data).to.include({ userId: null, method: 'anonymous' });
      expect(anon.body.data.ip).to.be.a('string');
    }
  });

  it('propagates X-Request-Id to the service and back', async () => {
    const res = await request(stack.gatewayUrl)
      .get('/api/events/_whoami')
      .set('X-Request-Id', 'trace-abc.123')
      .expect(200);
    expect(res.headers['x-request-id']).to.equal('trace-abc.123');
    const generated = await request(stack.gatewayUrl)
      .get('/api/events/_whoami')
      .set('X-Request-Id', 'bad id with spaces')
      .expect(200);
    expect(generated.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('ignores client-sent identity headers: only the gateway JWT counts', async () => {
    const res = await request(stack.gatewayUrl)
      .get('/api/v1/_whoami')
      .set('X-Internal-User-Id', '1')
      .set('X-User-Id', '1')
      .expect(200);
    expect(res.body.data.userId).to.equal(null);
  });

  describe('a request sent straight to a service', () => {
    const sign = (key: jwt.Secret, opts: jwt.SignOptions, claims: object = { amr: 'anonymous' }) =>
      jwt.sign(claims, key, { issuer: 'fieldhouse-gateway', jwtid: randomUUID(), expiresIn: 60, ...opts });

    it('is refused with 401 without a gateway JWT', async () => {
      for (const url of Object.values(stack.serviceUrls)) {
        const path =
          url === stack.serviceUrls.collection
            ? '/api/v1/_whoami'
            : url === stack.serviceUrls.polls
              ? '/api/polls/_whoami'
              : '/api/events/_whoami';
        const res = await request(url).get(path).expect(401);
        expect(res.headers['content-type']).to.match(/problem\+json/);
      }
    });

    it('is refused with 401 for forged JWTs: alg none, wrong audience, expired, wrong key, a user token', async () => {
      const alice = await registerUser(stack.gatewayUrl);
      const realKid = (await request(stack.gatewayUrl).get('/.well-known/jwks.json').expect(200)).body.keys[0]
        .kid;
      const { privateKey: otherKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: realKid })).toString('base64url')}.${Buffer.from(
        JSON.stringify({
          iss: 'fieldhouse-gateway',
          aud: 'events',
          sub: '1',
          amr: 'token',
          exp: Math.floor(Date.now() / 1000) + 60,
        }),
      ).toString('base64url')}.`;
      const hs256 = sign('secret', { algorithm: 'HS256', audience: 'events', keyid: realKid });
      const wrongKey = sign(otherKey, { algorithm: 'ES256', audience: 'events', keyid: realKid });
      const unknownKid = sign(otherKey, { algorithm: 'ES256', audience: 'events', keyid: 'nope' });
      const cases: Record<string, string> = {
        none,
        hs256,
        wrongKey,
        unknownKid,
        userToken: alice.token,
        junk: 'a.b.c',
      };
      for (const [label, token] of Object.entries(cases)) {
        const res = await request(stack.serviceUrls.events)
          .get('/api/events/_whoami')
          .set('Authorization', `Bearer ${token}`);
        expect(res.status, label).to.equal(401);
      }
    });

    it('is refused when a gateway JWT is for another audience or expired', async () => {
      const key = loadSigningKey(stack.config.privateKeyPem);
      const forCollection = sign(key.privateKey, {
        algorithm: 'ES256',
        audience: 'collection',
        keyid: key.kid,
      });
      const expired = sign(key.privateKey, {
        algorithm: 'ES256',
        audience: 'events',
        keyid: key.kid,
        expiresIn: -10,
      });
      const wrongIssuer = sign(key.privateKey, {
        algorithm: 'ES256',
        audience: 'events',
        keyid: key.kid,
        issuer: 'someone',
      });
      const good = sign(key.privateKey, { algorithm: 'ES256', audience: 'events', keyid: key.kid });
      for (const [label, token] of Object.entries({ forCollection, expired, wrongIssuer })) {
        const res = await request(stack.serviceUrls.events)
          .get('/api/events/_whoami')
          .set('Authorization', `Bearer ${token}`);
        expect(res.status, label).to.equal(401);
      }
      await request(stack.serviceUrls.events)
        .get('/api/events/_whoami')
        .set('Authorization', `Bearer ${good}`)
        .expect(200);
    });
  });

  it('publishes its public key as a JWKS', async () => {
    const res = await request(stack.gatewayUrl).get('/.well-known/jwks.json').expect(200);
    expect(res.body.keys).to.have.length(1);
    expect(res.body.keys[0]).to.include({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(res.body.keys[0]).to.not.have.property('d');
  });

  it('publishes extra public keys for rotation, and services accept JWTs signed with them', async () => {
    const nextPem = newSigningKeyPem();
    const next = loadSigningKey(nextPem);
    const publicPem = createPublicKey(next.privateKey).export({ format: 'pem', type: 'spki' }).toString();
    const rotating = await startStack({ gatewayEnv: { INTERNAL_JWT_EXTRA_PUBLIC_KEYS: publicPem } });
    try {
      const jwks = await request(rotating.gatewayUrl).get('/.well-known/jwks.json').expect(200);
      expect(jwks.body.keys.map((k: { kid: string }) => k.kid))
        .to.include(next.kid)
        .and.have.length(2);
      const token = jwt.sign({ amr: 'anonymous' }, next.privateKey, {
        algorithm: 'ES256',
        keyid: next.kid,
        issuer: 'fieldhouse-gateway',
        audience: 'events',
        expiresIn: 30,
        jwtid: randomUUID(),
      });
      await request(rotating.serviceUrls.events)
        .get('/api/events/_whoami')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
    } finally {
      await rotating.stop();
    }
  });
});
