import { expect } from 'chai';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

describe('console: served by the gateway (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  it('serves index.html for client routes (no-cache) and hashed assets for a year; APIs keep their answers', async () => {
    const page = await fetch(`${c.baseUrl}/p/some-poll/results`, { headers: { Accept: 'text/html' } });
    expect(page.status).to.equal(200);
    expect(page.headers.get('cache-control')).to.equal('no-cache');
    const html = await page.text();
    expect(html).to.contain('<div id="root"></div>');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, 'the entry script').to.be.a('string');
    const js = await fetch(`${c.baseUrl}${asset}`);
    expect(js.status).to.equal(200);
    expect(js.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(js.headers.get('content-type')).to.match(/javascript/);
    expect(js.headers.get('content-encoding'), 'assets are served gzip').to.equal('gzip');
    const apiAnswer = await fetch(`${c.baseUrl}/api/v1/me`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(
      apiAnswer.headers.get('content-encoding'),
      'API answers are not compressed by the console',
    ).to.equal(null);

    const missingAsset = await fetch(`${c.baseUrl}/assets/nope-123.js`, { headers: { Accept: 'text/html' } });
    expect(missingAsset.status).to.equal(404);
    const api = await fetch(`${c.baseUrl}/api/v1/nope`, { headers: { Accept: 'text/html' } });
    expect(api.status).to.not.equal(200);
    expect(api.headers.get('content-type')).to.match(/problem\+json/);
    const docs = await fetch(`${c.baseUrl}/docs/gateway.json`);
    expect(((await docs.json()) as { openapi: string }).openapi).to.match(/^3\.1/);
    const stamp = await fetch(`${c.baseUrl}/.vite/vote-budget.json`, {
      headers: { Accept: 'application/json' },
    });
    expect(stamp.status, 'build metadata is never served').to.equal(404);
  });

  it('sends a signed-out visitor of a console page to sign-in and remembers where they were', async () => {
    const page = await c.newPage();
    await page.goto('/settings/tokens');
    await page.waitForURL((u) => u.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/settings/tokens');
  });

  it('speaks French when the browser does, and switches language on demand', async () => {
    const page = await c.newPage({ locale: 'fr-FR' });
    await page.goto('/nowhere-at-all');
    await page.waitForURL((u) => u.pathname === '/sign-in');
    await page.getByRole('radio', { name: 'EN' }).waitFor({ state: 'attached' });
    expect(await page.locator('html').getAttribute('lang')).to.equal('fr');
    await page.getByText('EN', { exact: true }).click();
    await page.waitForFunction(() => document.documentElement.getAttribute('lang') === 'en');
    await expectAccessible(page, 'sign-in page');
  });

  it('tells a signed-in user that an address names no page, with a way home', async () => {
    const user = await registerUser(c.baseUrl, 'Lost Visitor');
    const page = await c.newPage();
    await signInThroughPage(page, user);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname, 'the address is kept').to.equal('/no/such/page');
    await expectAccessible(page, 'page not found');
    await screenshotBoth(page, 'not-found');
    await page.getByRole('link', { name: 'Back to the console' }).click();
    await page.waitForURL((u) => u.pathname !== '/no/such/page');
    // The URL changes a render before the page does: the not-found page goes, another comes.
    await page.getByRole('heading', { name: 'Page not found' }).waitFor({ state: 'detached' });
    const home = await page.getByRole('heading', { level: 1 }).first().innerText();
    expect(home).to.not.equal('Page not found');
  });
});
