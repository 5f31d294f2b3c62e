import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { startPollsWebhookWorker } from '@fieldhouse/polls';
import { webhookWorkerSettings } from '@fieldhouse/webhooks';
import {
  eventually,
  startWebhookReceiver,
  testLogger,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '@fieldhouse/testkit';
import { testWebhookVars } from '../test/support/stack.ts';
import { registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { bearerApi } from './support/api.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';
import { createPoll, type TestPoll } from './support/vote-polls.ts';

const verify = (secret: string, r: ReceivedWebhook) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: object };

/** What the webhooks page shows of the subscription whose URL is `url`. */
const card = (page: Page, url: string) => page.getByRole('article', { name: url });

describe('console: webhooks pages of the three areas (browser, real receiver and worker)', function () {
  this.timeout(180_000);
  let c: ConsoleStack;
  let receiver: WebhookReceiver;
  // The console stack starts no webhook worker (the other browser tests need none): this file
  // runs area B's, on the stack's broker and database, with one quick retry.
  let worker: { close: () => Promise<void> };
  before(async () => {
    c = await startConsoleStack();
    receiver = await startWebhookReceiver();
    worker = await startPollsWebhookWorker({
      broker: c.stack.polls.broker,
      db: c.stack.polls.db,
      logger: testLogger('browser-webhooks'),
      ...webhookWorkerSettings({
        ...testWebhookVars,
        WEBHOOK_RETRY_SCHEDULE: '300ms',
        WEBHOOK_TIMEOUT_MS: 10_000, // never reached by the test receivers, however loaded the machine
      }),
      pollIntervalMs: 100,
    });
  });
  after(async () => {
    await worker?.close();
    await receiver?.close();
    await c?.stop();
  });

  it('on a poll: creates a webhook whose secret, shown once, verifies a signed delivery; logs, pings, redelivers, turns off, deletes, and shows the cap in words', async () => {
    const owner = await registerUser(c.baseUrl, 'Hook Owner');
    const voter = await registerUser(c.baseUrl, 'Hook Voter');
    const api = bearerApi(c.baseUrl, owner.token);
    const poll: TestPoll = await createPoll(c.baseUrl, owner.token);
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/polls');

    // From the poll's card to its webhooks: none yet.
    await page.getByRole('button', { name: `More actions for ${poll.title}` }).click();
    await page.getByRole('menuitem', { name: 'Webhooks' }).click();
    await page.waitForURL((u) => u.pathname === `/polls/${poll.id}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    await expectAccessible(page, 'webhooks page, empty');

    // The form checks the URL and the kinds first; then the secret is shown once.
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByRole('button', { name: 'Add the webhook' }).click();
    await dialog.getByText('Give the address of your server').waitFor();
    await dialog.getByText('Choose at least one event').waitFor();
    await expectAccessible(page, 'add a webhook dialog');
    const url = `${receiver.url}/hook`;
    await dialog.getByRole('textbox', { name: 'URL of your server' }).fill(url);
    await dialog.getByRole('checkbox', { name: 'poll.vote.counted' }).check();
    await dialog.getByRole('textbox', { name: 'Description (optional)' }).fill('Votes to our dashboard');
    await dialog.getByRole('button', { name: 'Add the webhook' }).click();
    await dialog.waitFor({ state: 'detached' });
    const shown = page.getByTestId('webhook-secret');
    const secret = (await shown.innerText()).trim();
    expect(secret).to.match(/^whsec_/);
    await page.getByText('you will not see it again').waitFor();
    await expectAccessible(page, 'webhooks page with the new secret');
    await screenshotBoth(page, 'webhook-secret');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).to.not.contain(secret);

    // A vote: the receiver gets a delivery signed with the secret the page showed.
    receiver.answer('/hook', 204, 500, 500, 204);
    const section = poll.sections[0]!;
    const second = poll.sections[1]!;
    await bearerApi(c.baseUrl, voter.token)('POST', `/api/polls/${poll.id}/vote`, {
      votes: { [section.id]: section.options[0]!.id, [second.id]: second.options[0]!.id },
    });
    const got = await eventually(async () => receiver.on('/hook')[0]);
    expect(verify(secret, got).type).to.equal('poll.vote.counted');

    // The card and the delivery log with its attempt.
    const hook = card(page, url);
    await hook.getByText('Votes to our dashboard').waitFor();
    await hook.getByText('On', { exact: true }).waitFor();
    await screenshotBoth(page, 'webhooks');
    await hook.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
    const vote = page.getByTestId('webhook-delivery').filter({ hasText: 'poll.vote.counted' });
    await vote.getByText('Delivered').waitFor();
    await vote.getByText(/1 attempt · Answer 204/).waitFor();
    await vote.getByRole('button').first().click();
    await vote.getByTestId('webhook-attempt').getByText('Answer: 204').waitFor();
    await expectAccessible(page, 'delivery log with an opened delivery');

    // A test whose two attempts fail (500): failed, with both attempts; sent again, delivered.
    await page.getByRole('button', { name: 'Send a test' }).click();
    const ping = page.getByTestId('webhook-delivery').filter({ hasText: 'ping' });
    await ping.getByText('Failed').waitFor({ timeout: 15_000 });
    await ping.getByRole('button').first().click();
    await eventually(async () =>
      (await ping.getByTestId('webhook-attempt').count()) === 2 ? true : undefined,
    );
    expect(
      await ping.getByTestId('webhook-attempt').filter({ hasText: 'Answer: 500' }).count(),
      'both attempts answered 500',
    ).to.equal(2);
    const streak = async () =>
      ((await api('GET', `/api/polls/${poll.id}/webhooks`)) as { data: Array<{ failure_streak: number }> })
        .data[0]!.failure_streak;
    expect(await streak(), 'one delivery failed for good').to.equal(1);
    await screenshotBoth(page, 'webhook-deliveries');
    await expectAccessible(page, 'delivery log with a failed delivery');
    await ping.getByRole('button', { name: 'Send again' }).click();
    await ping.getByText('Delivered').waitFor({ timeout: 15_000 });
    const pings = receiver.on('/hook').slice(1);
    expect(pings).to.have.length(3);
    expect(pings.map((r) => verify(secret, r).type)).to.deep.equal(['ping', 'ping', 'ping']);
    expect(new Set(pings.map((r) => r.headers['webhook-id'])).size, 'one webhook-id').to.equal(1);
    expect(await streak(), 'a success clears the streak').to.equal(0);

    // Turned off by hand, then deleted after a confirmation.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await hook.getByRole('button', { name: 'Turn off' }).click();
    await hook.getByText(/^Turned off by hand/).waitFor();
    const listed = (await api('GET', `/api/polls/${poll.id}/webhooks`)) as {
      data: Array<{ active: boolean }>;
    };
    expect(listed.data.map((w) => w.active)).to.deep.equal([false]);
    await hook.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await expectAccessible(page, 'delete confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await hook.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete the webhook' }).click();
    await hook.waitFor({ state: 'detached' });
    expect(((await api('GET', `/api/polls/${poll.id}/webhooks`)) as { data: unknown[] }).data).to.deep.equal(
      [],
    );

    // At the cap (20 per poll), one more is refused in words, in the dialog.
    for (let i = 0; i < 20; i++)
      await api('POST', `/api/polls/${poll.id}/webhooks`, { url: `${url}-${i}`, events: ['poll.closed'] });
    await page.reload();
    await page.getByText('20 of 20 webhooks').waitFor();
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    await dialog.getByRole('textbox', { name: 'URL of your server' }).fill(`${url}-21`);
    await dialog.getByRole('checkbox', { name: 'poll.closed' }).check();
    await dialog.getByRole('button', { name: 'Add the webhook' }).click();
    await dialog.getByText('You have reached the limit of 20 webhooks here. Delete one first.').waitFor();
    expect(await dialog.innerText()).to.not.contain('422');
    await expectAccessible(page, 'the cap refused');

    // On a phone the actions stay on the screen.
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    const del = await page.getByRole('button', { name: 'Delete' }).first().boundingBox();
    expect(del!.x + del!.width).to.be.at.most(390);
  });

  it('on a workspace (managers) and an event (the owner): linked from their pages, a webhook with its secret', async () => {
    const owner = await registerUser(c.baseUrl, 'Workspace Owner');
    const api = bearerApi(c.baseUrl, owner.token);
    const ws = ((await api('POST', '/api/v1/workspaces', { name: 'Field team' })) as { data: { id: number } })
      .data;
    const project = (
      (await api('POST', `/api/v1/workspaces/${ws.id}/projects`, { name: 'Wells' })) as {
        data: { id: number };
      }
    ).data;
    const event = (await api('POST', '/api/events', {
      name: 'Spring gala',
      start_date: '2030-05-01T19:00:00',
      location: 'Lyon',
    })) as { id: string };
    const page = await c.newPage({ phone: true });
    await signInThroughPage(page, owner, `/workspaces/${ws.id}`);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL((u) => u.pathname === `/workspaces/${ws.id}/webhooks`);
    await page.getByText('Events of the workspace “Field team”').waitFor();
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByRole('textbox', { name: 'URL of your server' }).fill(`${receiver.url}/ws`);
    await dialog.getByRole('checkbox', { name: 'submission.created' }).check();
    await dialog.getByText('Leave empty for every project of the workspace').waitFor();
    // Limited to one project of the workspace.
    await dialog.getByLabel('Projects').click();
    await page.getByRole('option', { name: 'Wells' }).click();
    await page.keyboard.press('Escape');
    await expectAccessible(page, 'workspace webhook form on a phone');
    await dialog.getByRole('button', { name: 'Add the webhook' }).click();
    const first = (await page.getByTestId('webhook-secret').innerText()).trim();
    const wsCard = card(page, `${receiver.url}/ws`);
    await wsCard.getByText('Projects: Wells').waitFor();
    // Edited: the form opens with what it has.
    await wsCard.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the webhook' });
    expect(await edit.getByRole('checkbox', { name: 'submission.created' }).isChecked()).to.equal(true);
    await edit.getByRole('checkbox', { name: 'submission.reviewed' }).check();
    await edit.getByRole('textbox', { name: 'Description (optional)' }).fill('Reviews to the data team');
    await edit.getByRole('button', { name: 'Save' }).click();
    await wsCard.getByText('Reviews to the data team').waitFor();
    await wsCard.getByText('submission.reviewed').waitFor();
    // A new secret: the dialog explains the overlap; the new one is shown once, with its end.
    await wsCard.getByRole('button', { name: 'New secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Make a new signing secret?' });
    await rotate.getByText(/two signatures for 24 hours/).waitFor();
    await rotate.getByRole('button', { name: 'Make a new secret' }).click();
    await page.getByText('New signing secret').waitFor();
    await page.getByText(/The previous secret keeps signing beside this one until/).waitFor();
    const rotated = (await page.getByTestId('webhook-secret').innerText()).trim();
    expect(rotated)
      .to.match(/^whsec_/)
      .and.not.equal(first);
    await expectAccessible(page, 'workspace webhooks on a phone');
    const listed = (await api('GET', `/api/v1/workspaces/${ws.id}/webhooks`)) as {
      data: Array<{ events: string[]; project_ids: number[] | null }>;
    };
    expect(listed.data).to.have.length(1);
    expect(listed.data[0]).to.deep.include({
      events: ['submission.created', 'submission.reviewed'],
      project_ids: [project.id],
    });

    // The event's header links its webhooks for its owner.
    await page.goto(`/events/${event.id}/invites`);
    await page
      .getByRole('navigation', { name: 'Pages of this event' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.getByText('Events of “Spring gala”').waitFor();
    await page.getByText('No webhooks yet').waitFor();
    await expectAccessible(page, 'event webhooks on a phone');
    // In French.
    await page.getByText('FR', { exact: true }).click();
    await page.getByRole('button', { name: 'Ajouter un webhook' }).waitFor();
    await page.getByText("Aucun webhook pour l'instant").waitFor();
    await expectAccessible(page, 'event webhooks in French');
  });
});
