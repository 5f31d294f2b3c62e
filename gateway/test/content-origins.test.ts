import { expect } from 'chai';
import { startTestGateway, type TestGateway } from './support.ts';

describe('gateway: CONTENT_ORIGINS in the Content-Security-Policy (photos on object storage, map tiles)', () => {
  let plain: TestGateway;
  let widened: TestGateway;
  before(async () => {
    plain = await startTestGateway({ MAP_TILE_URL: '' });
    widened = await startTestGateway({
      CONTENT_ORIGINS: 'https://s3.example.org,https://tiles.example.org',
      MAP_TILE_URL: '',
    });
  });
  after(async () => {
    await plain?.stop();
    await widened?.stop();
  });

  const directives = async (g: TestGateway) => {
    const csp = (await fetch(`${g.url}/healthz`)).headers.get('content-security-policy') ?? '';
    return Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    ) as Record<string, string[]>;
  };

  it('keeps helmet’s policy without origins or map tiles: images and requests from the console’s own origin only', async () => {
    const d = await directives(plain);
    expect(d['img-src']).to.deep.equal(["'self'", 'data:']);
    expect(d['connect-src']).to.equal(undefined); // default-src 'self' applies
    expect(d['default-src']).to.deep.equal(["'self'"]);
  });

  it('adds the configured origins to img-src and connect-src, and nowhere else', async () => {
    const d = await directives(widened);
    expect(d['img-src']).to.deep.equal([
      "'self'",
      'data:',
      'https://s3.example.org',
      'https://tiles.example.org',
    ]);
    expect(d['connect-src']).to.deep.equal(["'self'", 'https://s3.example.org', 'https://tiles.example.org']);
    expect(d['script-src']).to.deep.equal(["'self'"]);
    expect(d['default-src']).to.deep.equal(["'self'"]);
  });
});
