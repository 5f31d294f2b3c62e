import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { catalogue, COMPONENTS } from '../../scripts/lib/problem-catalogue.ts';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { createCollectionProject } from './support/collection-project.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, twoSectionPoll } from './support/vote-polls.ts';

const root = join(import.meta.dirname, '..', '..');
const french = JSON.parse(readFileSync(join(root, 'console/src/locales/fr/problems.json'), 'utf8')) as Record<
  string,
  string
>;

/** The extension members sent with every problem, for the messages' `{{param}}`. */
const PARAMS = { limit: 20, max_items: 50, attempts_left: 3 };
const fill = (text: string) =>
  text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String((PARAMS as Record<string, number>)[k]));

/** Every catalogued code with a status it is answered with, and the codes only the console's list has. */
function problemTypes(): Array<{ code: string; status: number }> {
  const byCode = new Map<string, number>();
  for (const dirs of Object.values(COMPONENTS))
    for (const p of catalogue(root, dirs)) if (!byCode.has(p.code)) byCode.set(p.code, p.statuses[0]!);
  for (const code of Object.keys(french)) if (!byCode.has(code)) byCode.set(code, 422);
  return [...byCode].map(([code, status]) => ({ code, status }));
}

describe('console: errors in the user’s words, tokens and sessions on a phone (browser)', function () {
  this.timeout(240_000);
  let c: ConsoleStack;
  before(async () => {
    c = await startConsoleStack();
  });
  after(async () => c?.stop());

  /** The sign-in page in French, whose login call answers what `answer` says (the real gateway otherwise). */
  async function frenchSignIn(
    answer: () => { status: number; body?: unknown; headers?: Record<string, string> } | 'abort',
  ) {
    const page = await c.newPage({ locale: 'fr-FR' });
    await page.route('**/api/v1/login', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const a = answer();
      if (a === 'abort') return route.abort('connectionrefused');
      return route.fulfill({
        status: a.status,
        contentType: 'application/problem+json',
        headers: a.headers,
        body: JSON.stringify(a.body),
      });
    });
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'Adresse e-mail' }).fill('someone@example.test');
    await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('a long password');
    return page;
  }

  /** Sends the form and waits for the alert of the answer whose English detail is `detail`. */
  async function refusal(page: Page, detail: string) {
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.waitForFunction(
      (d) => document.querySelector('[data-testid="problem-details"]')?.textContent?.includes(d) ?? false,
      detail,
    );
    const alert = page.getByTestId('problem');
    return {
      alert,
      main: (await alert.innerText()).trim(),
      message: (await alert.getByTestId('problem-message').innerText()).trim(),
    };
  }

  it('renders every problem type in French: the message of its code, the status and English detail only in Details', async () => {
    const types = problemTypes();
    expect(types.length).to.be.greaterThan(60);
    let current: { status: number; body: unknown; headers?: Record<string, string> } = {
      status: 400,
      body: {},
    };
    const page = await frenchSignIn(() => current);
    for (const { code, status } of types) {
      const detail = `The English detail of ${code}.`;
      current = {
        status,
        body: {
          type: `urn:fieldhouse:problem:${code}`,
          title: 'Refused',
          status,
          detail,
          message: detail,
          code,
          ...PARAMS,
        },
      };
      const { main, message } = await refusal(page, detail);
      expect(message, code).to.equal(fill(french[code]!));
      // Closed, the alert shows its heading, the message and "Détails": no status, no English.
      expect(main, code).to.not.contain(detail);
      expect(main, code).to.not.match(new RegExp(`\\b${status}\\b`));
      expect(main, code).to.not.match(/HTTP|Refused/);
    }

    // Open, the details name the status, the code and the service's sentence.
    await page.getByText('Détails', { exact: true }).click();
    const details = page.getByTestId('problem-details');
    const last = types.at(-1)!;
    expect(await details.innerText())
      .to.contain(`Statut HTTP: ${last.status}`)
      .and.contain(`The English detail of ${last.code}.`);
    await expectAccessible(page, 'a problem with its details open');
    await screenshotBoth(page, 'problem-alert-details');
    await page.getByText('Détails', { exact: true }).click();
    await expectAccessible(page, 'a problem with its details closed');

    // Without a code (or one the console does not know), a message for the status.
    for (const [status, text] of [
      [400, "La demande n'a pas pu être comprise. Rechargez la page et réessayez."],
      [404, "Introuvable. Ceci a peut-être été supprimé, ou vous n'y avez pas accès."],
      [418, 'La demande a été refusée.'],
      [503, "Une erreur s'est produite de notre côté. Réessayez plus tard."],
    ] as const) {
      const detail = `Plain ${status}.`;
      current = {
        status,
        body: { status, title: 'Whatever', detail, code: status === 418 ? 'teapot' : undefined },
      };
      expect((await refusal(page, detail)).message).to.equal(text);
    }
    // The wait of a 429 stays, in French.
    current = {
      status: 429,
      headers: { 'Retry-After': '7' },
      body: { status: 429, detail: 'Too Many Requests.', code: 'rate_limited' },
    };
    const limited = await refusal(page, 'Too Many Requests.');
    expect(limited.message).to.equal('Trop de tentatives. Patientez un instant. Réessayez dans 7 secondes.');
    await screenshotBoth(page, 'problem-alert');
  });

  it('shows a network failure in French', async () => {
    const page = await frenchSignIn(() => 'abort');
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    const alert = page.getByTestId('problem');
    await alert
      .getByText('Impossible de joindre Fieldhouse. Vérifiez votre connexion et réessayez.')
      .waitFor();
    await alert.getByText('Le serveur est injoignable').waitFor();
  });

  it('shows real refusals through the gateway in French: wrong credentials, a taken e-mail under its field', async () => {
    const user = await registerUser(c.baseUrl, 'Déjà Inscrit');
    const page = await c.newPage({ locale: 'fr-FR' });
    await page.goto('/sign-in');
    await page.getByRole('textbox', { name: 'Adresse e-mail' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    const alert = page.getByTestId('problem');
    await alert.getByText("L'adresse e-mail ou le mot de passe est incorrect.").waitFor();
    expect(await alert.innerText()).to.not.match(/401|invalid/i);
    await alert.getByText('Détails').click();
    expect(await alert.getByTestId('problem-details').innerText())
      .to.contain('401')
      .and.contain('invalid_credentials');

    // A 422 of the gateway (`The email has already been taken.`) under the e-mail field, in French.
    await page.goto('/register');
    await page.getByRole('textbox', { name: 'Nom' }).fill('Quelqu’un d’autre');
    await page.getByRole('textbox', { name: 'Adresse e-mail' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill('un autre long mot de passe');
    await page.getByRole('textbox', { name: 'Confirmez le mot de passe' }).fill('un autre long mot de passe');
    await page.getByRole('button', { name: /Créer le compte/ }).click();
    await page.getByText('Déjà utilisé').first().waitFor();
    expect(await page.locator('body').innerText()).to.not.contain('already been taken');
    await expectAccessible(page, 'register page with a 422 in French');
  });

  it("e-mails a French voter's one-time password in French (the console's Accept-Language)", async () => {
    const owner = await registerUser(c.baseUrl, 'Poll Owner');
    const poll = await createPoll(
      c.baseUrl,
      owner.token,
      twoSectionPoll({ require_verification: true }, 'Déjeuner'),
    );
    // The browser says English (en-GB); the voter chose French in the console.
    const page = await c.newPage();
    await page.addInitScript(() => localStorage.setItem('fieldhouse.lang', 'fr'));
    await page.goto(`/p/${poll.id}`);
    await page.getByRole('textbox', { name: /Votre e-mail/ }).fill('votante@example.test');
    for (const label of ['Pizzeria', 'Noon']) await page.getByRole('radio', { name: label }).check();
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && /\/vote$/.test(r.url()));
    await page.getByRole('button', { name: 'Voter', exact: true }).click();
    const code = ((await (await answer).json()) as { data: { verification_code: string } }).data
      .verification_code;
    const mail = await c.sink.waitFor((m) => m.text.includes(code), 15_000);
    expect(mail.subject).to.equal('Votre mot de passe à usage unique pour « Déjeuner »');
    expect(mail.text).to.match(/^Votre mot de passe à usage unique est \d{6}/);
    expect(mail.text).to.contain('Il expire dans 10 minutes.');
  });

  it('names the workspace in the breadcrumbs, and keeps Revoke in view on a phone', async () => {
    const user = await registerUser(c.baseUrl, 'Phone User');
    const { projectId } = await createCollectionProject(
      c.baseUrl,
      user.token,
      [{ name: 'site', label: 'Site', type: 'text' }],
      {},
      {
        workspace: 'Rivers of Ghana',
      },
    );
    const api = gatewayClient(c.baseUrl, user.token);
    const long = 'A very long token name for the nightly export to the statistics office server';
    await api.post('/api/v1/tokens').send({ name: long }).expect(201);

    const page = await c.newPage({ phone: true });
    await signInThroughPage(page, user, `/projects/${projectId}/submissions`);
    const crumbs = page.getByRole('link', { name: 'Rivers of Ghana' });
    await crumbs.waitFor();
    expect(await page.getByRole('link', { name: 'Workspace', exact: true }).count()).to.equal(0);

    await page.goto('/settings/tokens');
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor();
    const revoke = page.getByRole('button', { name: `Revoke the token ${long}` });
    await revoke.scrollIntoViewIfNeeded();
    const box = (await revoke.boundingBox())!;
    expect(box.x).to.be.at.least(0);
    expect(box.x + box.width).to.be.at.most(390);
    const endOthers = (await page.getByRole('button', { name: 'Sign out everywhere else' }).boundingBox())!;
    expect(endOthers.x + endOthers.width).to.be.at.most(390);
    // Nothing on the page scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await expectAccessible(page, 'tokens as cards on a phone');
    await revoke.click();
    await page
      .getByRole('dialog', { name: 'Revoke this token?' })
      .getByRole('button', { name: 'Revoke the token' })
      .click();
    await revoke.waitFor({ state: 'detached' });
  });
});
