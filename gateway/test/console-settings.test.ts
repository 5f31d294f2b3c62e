import { expect } from 'chai';
import { loadGatewayConfig } from '../src/config.ts';
import { startTestGateway, type TestGateway } from './support.ts';

/** The CSP's directives of an answer, by name. */
const directivesOf = (res: Response) =>
  Object.fromEntries(
    (res.headers.get('content-security-policy') ?? '').split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  ) as Record<string, string[]>;

describe('gateway: the console’s settings (GET /api/v1/console/settings, map tiles)', () => {
  let defaults: TestGateway;
  let custom: TestGateway;
  let none: TestGateway;
  before(async () => {
    [defaults, custom, none] = await Promise.all([
      startTestGateway(),
      startTestGateway({
        MAP_TILE_URL: 'http://127.0.0.1:9999/tiles/{z}/{x}/{y}.png',
        MAP_TILE_ATTRIBUTION: '© Our tiles',
        MAP_TILE_ATTRIBUTION_URL: 'https://tiles.example.org/about',
        CONTENT_ORIGINS: 'https://s3.example.org',
      }),
      startTestGateway({ MAP_TILE_URL: '' }),
    ]);
  });
  after(async () => {
    await Promise.all([defaults?.stop(), custom?.stop(), none?.stop()]);
  });

  it('serves OpenStreetMap’s standard tiles and their attribution by default, public and cacheable, and lets their origin through the CSP', async () => {
    // No cookie, no token: the console reads it before anyone signs in.
    const res = await fetch(`${defaults.url}/api/v1/console/settings`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
    expect(await res.json()).to.deep.equal({
      map: {
        tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        attribution: '© OpenStreetMap contributors',
        attribution_url: 'https://www.openstreetmap.org/copyright',
      },
    });
    const d = directivesOf(res);
    expect(d['img-src']).to.deep.equal(["'self'", 'data:', 'https://tile.openstreetmap.org']);
    expect(d['connect-src']).to.deep.equal(["'self'", 'https://tile.openstreetmap.org']);
    // Answered by the gateway whatever the case or a trailing slash (never proxied to collection).
    const other = await fetch(`${defaults.url}/API/v1/Console/Settings/`);
    expect(other.status).to.equal(200);
  });

  it('serves the deployment’s own tile server and attribution, its origin added to the configured ones', async () => {
    const res = await fetch(`${custom.url}/api/v1/console/settings`);
    expect(await res.json()).to.deep.equal({
      map: {
        tile_url: 'http://127.0.0.1:9999/tiles/{z}/{x}/{y}.png',
        attribution: '© Our tiles',
        attribution_url: 'https://tiles.example.org/about',
      },
    });
    const d = directivesOf(res);
    expect(d['img-src']).to.deep.equal([
      "'self'",
      'data:',
      'https://s3.example.org',
      'http://127.0.0.1:9999',
    ]);
    expect(d['connect-src']).to.deep.equal(["'self'", 'https://s3.example.org', 'http://127.0.0.1:9999']);
  });

  it('serves no tiles and no attribution when MAP_TILE_URL is empty, and the CSP stays helmet’s', async () => {
    const res = await fetch(`${none.url}/api/v1/console/settings`);
    expect(await res.json()).to.deep.equal({
      map: { tile_url: null, attribution: null, attribution_url: null },
    });
    expect(directivesOf(res)['img-src']).to.deep.equal(["'self'", 'data:']);
  });

  it('refuses at start-up a tile URL that is not an http(s) XYZ template, naming the variable', () => {
    const base = { INTERNAL_JWT_PRIVATE_KEY: 'x' };
    for (const bad of [
      'ftp://tiles.example.org/{z}/{x}/{y}.png',
      'https://tiles.example.org/tile.png',
      'tiles',
    ])
      expect(() => loadGatewayConfig({ ...base, MAP_TILE_URL: bad }), bad).to.throw(/MAP_TILE_URL/);
    expect(() => loadGatewayConfig({ ...base, MAP_TILE_ATTRIBUTION_URL: 'javascript:alert(1)' })).to.throw(
      /MAP_TILE_ATTRIBUTION_URL/,
    );
  });
});
