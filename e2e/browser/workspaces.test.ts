import { expect } from 'chai';
import { eventually } from '@fieldhouse/testkit';
import { gatewayClient, registerUser } from '../test/support/users.ts';
import { expectAccessible } from './support/accessibility.ts';
import { startConsoleStack, type ConsoleStack } from './support/console-stack.ts';
import { screenshotBoth } from './support/screenshots.ts';
import { signInThroughPage } from './support/sign-in.ts';

interface ApiMember {
  user_id: number;
  role: string;
}

describe('console: workspaces, members and projects (browser)', function () {
  this.timeout(120_000);
  let c: ConsoleStack;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let collector: Awaited<ReturnType<typeof registerUser>>;
  let workspaceId: number;
  before(async () => {
    c = await startConsoleStack();
    [owner, admin, collector] = await Promise.all([
      registerUser(c.baseUrl, 'Awa Owner'),
      registerUser(c.baseUrl, 'Ali Admin'),
      registerUser(c.baseUrl, 'Cleo Collector'),
    ]);
    // The collection service learns of users from the gateway's user events (its worker, not
    // run here) or from their first call: each calls it once, so an invitation by e-mail finds them.
    for (const user of [admin, collector])
      await gatewayClient(c.baseUrl, user.token).get('/api/v1/workspaces').expect(200);
  });
  after(async () => c?.stop());

  const asOwner = () => gatewayClient(c.baseUrl, owner.token);
  const members = async () =>
    (await asOwner().get(`/api/v1/workspaces/${workspaceId}`).expect(200)).body.data.members as ApiMember[];

  it('creates a workspace and a project, manages members, renames, edits and deletes a project', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, '/workspaces');
    await page.getByText('You are not a member of any workspace yet.').waitFor();
    await expectAccessible(page, 'empty workspaces list');

    // The client refuses an empty name before anything is sent.
    await page.getByRole('button', { name: 'Create a workspace' }).click();
    await page.getByRole('button', { name: 'Create the workspace' }).click();
    await page.getByText('A name is required').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Sahel survey');
    await page.getByRole('textbox', { name: 'Description' }).fill('Household survey, 2027 season');
    await page.getByRole('button', { name: 'Create the workspace' }).click();
    await page.waitForURL((u) => /^\/workspaces\/\d+$/.test(u.pathname));
    workspaceId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { level: 1, name: 'Sahel survey' }).waitFor();
    await page.getByText('Your role: Owner').waitFor();

    // An address that is a member already (the owner's own): the refusal shows once, under the
    // field, in the user's words, with the address kept (it used to show twice).
    const email = page.getByRole('textbox', { name: 'E-mail address' });
    await email.fill(owner.email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('This person is already a member of the workspace').waitFor();
    expect(await page.getByText('This person is already a member of the workspace').count()).to.equal(1);
    expect(await email.inputValue()).to.equal(owner.email);

    await email.fill(admin.email);
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('combobox', { name: 'Role of Ali Admin' }).waitFor();
    // The form clears itself once the invitation is answered, which may come a moment after the
    // list shows the new member: typing before that would be wiped (as CI's loaded run did).
    await eventually(async () => (await email.inputValue()) === '');
    await email.fill(collector.email);
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('collector');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('combobox', { name: 'Role of Cleo Collector' }).waitFor();
    // Change a role in place.
    await page.getByRole('combobox', { name: 'Role of Cleo Collector' }).selectOption('viewer');
    await eventually(
      async () => (await members()).find((m) => m.user_id === collector.id)?.role === 'viewer',
    );
    await page.getByRole('combobox', { name: 'Role of Cleo Collector' }).selectOption('collector');
    await eventually(
      async () => (await members()).find((m) => m.user_id === collector.id)?.role === 'collector',
    );
    expect((await members()).find((m) => m.user_id === admin.id)?.role).to.equal('admin');

    // Rename the workspace.
    await page.getByRole('button', { name: 'Rename' }).click();
    const name = page.getByRole('dialog').getByRole('textbox', { name: 'Name' });
    expect(await name.inputValue()).to.equal('Sahel survey');
    await name.fill('Sahel household survey');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sahel household survey' }).waitFor();

    // A project: created here, the console then opens its form builder.
    await page.getByRole('button', { name: 'Create a project' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Wells 2027');
    await page.getByRole('button', { name: 'Create the project' }).click();
    await page.waitForURL((u) => /^\/projects\/\d+\/form$/.test(u.pathname));
    const projectId = Number(new URL(page.url()).pathname.split('/')[2]);
    await page.goto(`/workspaces/${workspaceId}`);
    await page.getByRole('link', { name: 'Wells 2027', exact: true }).waitFor();
    await page.getByText('0 submissions').waitFor();
    await expectAccessible(page, 'workspace with a project and members');
    await screenshotBoth(page, 'workspace');

    await page.getByRole('button', { name: 'Edit Wells 2027' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Wells and pumps 2027');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Wells and pumps 2027', exact: true }).waitFor();
    const project = (await asOwner().get(`/api/v1/projects/${projectId}`).expect(200)).body.data;
    expect(project.name).to.equal('Wells and pumps 2027');

    await page.getByRole('button', { name: 'Delete Wells and pumps 2027' }).click();
    await page.getByRole('dialog').getByText('with its 0 submissions').waitFor();
    await page.getByRole('button', { name: 'Delete the project' }).click();
    await page.getByText('No projects yet.').waitFor();
    await asOwner().get(`/api/v1/projects/${projectId}`).expect(404);

    await page.goto('/workspaces');
    await page.getByRole('heading', { name: 'Sahel household survey' }).waitFor();
    await expectAccessible(page, 'workspaces list');
    await screenshotBoth(page, 'workspaces');
  });

  it('offers each member only what their role may do', async () => {
    // An admin manages members but cannot touch the owner nor delete the workspace.
    const adminPage = await c.newPage();
    await signInThroughPage(adminPage, admin, `/workspaces/${workspaceId}`);
    await adminPage.getByText('Your role: Admin').waitFor();
    await adminPage.getByRole('combobox', { name: 'Role of Cleo Collector' }).waitFor();
    expect(await adminPage.getByRole('combobox', { name: 'Role of Awa Owner' }).count()).to.equal(0);
    expect(await adminPage.getByRole('button', { name: 'Remove Awa Owner' }).count()).to.equal(0);
    expect(await adminPage.getByRole('button', { name: 'Delete the workspace' }).count()).to.equal(0);
    await adminPage.getByRole('button', { name: 'Rename' }).waitFor();

    // A collector sees members and projects, with the reasons instead of the actions.
    const collectorPage = await c.newPage({ phone: true });
    await signInThroughPage(collectorPage, collector, `/workspaces/${workspaceId}`);
    await collectorPage.getByText('Your role: Collector').waitFor();
    await collectorPage.getByText('Only owners, admins and managers can create projects.').waitFor();
    await collectorPage.getByText('Only owners and admins can add members').waitFor();
    expect(await collectorPage.getByRole('combobox').count()).to.equal(0);
    expect(await collectorPage.getByRole('button', { name: 'Rename' }).count()).to.equal(0);
    await expectAccessible(collectorPage, 'workspace as a collector, phone');

    // Any member may leave.
    await collectorPage.getByRole('button', { name: 'Leave the workspace' }).click();
    await collectorPage.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
    await collectorPage.waitForURL((u) => u.pathname === '/workspaces');
    expect((await members()).map((m) => m.user_id)).not.to.include(collector.id);
  });

  it('removes another member after a confirmation, and the removed member no longer sees the workspace', async () => {
    const asAdmin = () => gatewayClient(c.baseUrl, admin.token);
    await asAdmin().get(`/api/v1/workspaces/${workspaceId}`).expect(200);
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/workspaces/${workspaceId}`);
    const table = page.getByRole('table', { name: 'Members' });
    await table.getByRole('rowheader', { name: /^Ali Admin/ }).waitFor();

    // Cancelling keeps the member.
    await page.getByRole('button', { name: 'Remove Ali Admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this member?' });
    await dialog
      .getByText(
        'Ali Admin loses access to “Sahel household survey” and its projects. Their submissions stay.',
      )
      .waitFor();
    await expectAccessible(page, 'member removal dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await members()).map((m) => m.user_id)).to.include(admin.id);

    // Confirming removes them, from the table and from the workspace.
    await page.getByRole('button', { name: 'Remove Ali Admin' }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await table.getByRole('rowheader', { name: /^Ali Admin/ }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Remove Ali Admin' }).count()).to.equal(0);
    await table.getByRole('rowheader', { name: /^Awa Owner/ }).waitFor();
    expect(await table.getByRole('rowheader').count()).to.equal(1);
    expect((await members()).map((m) => m.user_id)).to.deep.equal([owner.id]);

    // The removed admin's own token: the workspace is gone from their list and answers 404.
    await asAdmin().get(`/api/v1/workspaces/${workspaceId}`).expect(404);
    const theirs = (await asAdmin().get('/api/v1/workspaces').expect(200)).body.data as Array<{ id: number }>;
    expect(theirs.map((w) => w.id)).not.to.include(workspaceId);
    const adminPage = await c.newPage();
    await signInThroughPage(adminPage, admin, '/workspaces');
    await adminPage.getByText('You are not a member of any workspace yet.').waitFor();
  });

  it('deletes a workspace after a confirmation naming what goes with it', async () => {
    const page = await c.newPage();
    await signInThroughPage(page, owner, `/workspaces/${workspaceId}`);
    await page.getByRole('button', { name: 'Delete the workspace' }).click();
    await page.getByRole('dialog').getByText('with all its projects').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete the workspace' }).click();
    await page.waitForURL((u) => u.pathname === '/workspaces');
    await page.getByText('You are not a member of any workspace yet.').waitFor();
    await asOwner().get(`/api/v1/workspaces/${workspaceId}`).expect(404);
  });
});
