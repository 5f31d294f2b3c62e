import { expect } from 'chai';
import { isIdentityPath } from '../src/identity/paths.ts';

describe('gateway: which paths under a service prefix the gateway answers itself', () => {
  it('keeps the identity routes, in any case and with one trailing slash', () => {
    for (const p of [
      '/api/v1/login',
      '/api/login',
      '/api/v1/register',
      '/api/v1/csrf-cookie',
      '/sanctum/csrf-cookie',
      '/api/v1/me',
      '/API/V1/Me',
      '/api/v1/me/',
      '/api/v1/logout',
      '/api/v1/tokens',
      '/api/v1/tokens/',
      '/api/v1/tokens/42',
      '/api/v1/tokens/42/',
      '/api/v1/sessions',
      '/api/v1/sessions/others',
      '/api/v1/sessions/0a1b2c3d4e5f60718293a4b5',
      '/api/v1/me/password',
      '/api/v1/me/email-verification',
      '/api/v1/email/verify',
      '/api/v1/password/forgot',
      '/api/v1/password/reset',
    ])
      expect(isIdentityPath(p), p).to.equal(true);
  });

  it('lets everything else go to the services, deeper token paths included', () => {
    for (const p of [
      '/api/v1/tokens/42/extra',
      '/api/v1/sessions/others/extra',
      '/api/v1/me//',
      '/api/v1/projects/1',
      '/api/v1/_whoami',
      '/api/v1/meet',
      '/api/v1/password',
      '/api/v1/email/verify/x',
      '/api/polls/p1/vote',
      '/api/events',
    ])
      expect(isIdentityPath(p), p).to.equal(false);
  });
});
