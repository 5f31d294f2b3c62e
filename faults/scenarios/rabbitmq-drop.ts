/**
 * Scenario 3: every RabbitMQ connection of the suite's vhost closed by the broker
 * (`rabbitmqctl close_all_connections`), twice, while exports are requested and invitees are
 * created (each invitation is an e-mail: outbox, relay, RabbitMQ, events worker, SMTP).
 * Proves: every requested export reaches `completed`, every invitation e-mail reaches the SMTP
 * sink exactly once, and so does each finished export's e-mail to its requester.
 */
import { createEvent } from '../lib/fixtures.ts';
import { sleep } from '@fieldhouse/testkit';
import { deliveriesTo, sunkMessages } from '../lib/mail.ts';
import { requestExport, waitExportFinal } from '../lib/probes.ts';
import { closeAllConnections } from '../lib/rabbit.ts';
import { secs } from '../lib/report.ts';
import type { Scenario } from '../lib/scenario.ts';
import { settings } from '../lib/settings.ts';

const WAIT_MS = 60_000;

export const rabbitDrop: Scenario = {
  name: 'rabbitmq-drop',
  title: 'RabbitMQ connections dropped under export and e-mail load: every export done, every e-mail once',
  async run(ctx, report) {
    const { fx, stack } = ctx;
    const event = await createEvent(fx.api, `Rabbit ${fx.runId}`);
    const addresses: string[] = [];
    const jobs: string[] = [];
    const failures: string[] = [];
    const t0 = performance.now();
    // Exports and invitations spread over ~8 s; the connections are closed at ~1.5 s and ~5 s.
    const exportsDone = (async () => {
      for (let i = 0; i < settings.rabbitExports; i++) {
        try {
          jobs.push(await requestExport(ctx, fx.form.projectId));
        } catch (err) {
          failures.push(`export ${i}: ${String(err)}`);
        }
        await sleep(8_000 / settings.rabbitExports);
      }
    })();
    const invitesDone = (async () => {
      for (let i = 0; i < settings.rabbitInvites; i++) {
        const email = `rabbit-${fx.runId}-${i}@example.test`;
        const res = await fx.api.post(`/api/events/${event.id}/invites`, {
          nom: `Rabbit ${i}`,
          email,
          type_invite: 'standard',
        });
        if (res.status === 201) addresses.push(email);
        else failures.push(`invite ${i}: ${res.status} ${res.error ?? res.text.slice(0, 120)}`);
        await sleep(8_000 / settings.rabbitInvites);
      }
    })();
    const drops = (async () => {
      for (const at of [1_500, 5_000]) {
        await sleep(Math.max(0, at - (performance.now() - t0)));
        await closeAllConnections(stack.vhost, 'fault');
        report.info(`closed every connection of vhost ${stack.vhost} at ${secs(performance.now() - t0)}`);
      }
    })();
    await Promise.all([exportsDone, invitesDone, drops]);
    const loadEnd = performance.now();
    report.check(
      failures.length === 0,
      `requests during the drops: ${jobs.length} exports and ${addresses.length} invitees accepted, ${failures.length} refused` +
        (failures.length ? ` (e.g. ${failures.slice(0, 3).join('; ')})` : ''),
    );

    // Every export final, every invitation delivered, within WAIT_MS of the end of the load.
    const finals = await Promise.all(jobs.map((j) => waitExportFinal(ctx, j, WAIT_MS)));
    const completed = finals.filter((f) => f.status === 'completed').length;
    report.check(
      completed === jobs.length,
      `exports: ${jobs.length} requested, ${completed} completed, ${finals.filter((f) => f.status === 'failed').length} failed, ` +
        `${finals.filter((f) => !f.final).length} not final after ${secs(WAIT_MS)} (${[...new Set(finals.map((f) => f.status))].join(', ')})`,
    );
    let delivered = new Map<string, number>();
    while (performance.now() - loadEnd < WAIT_MS) {
      delivered = await deliveriesTo(stack.mailApiUrl, addresses);
      if (addresses.every((a) => delivered.get(a))) break;
      await sleep(500);
    }
    const allIn = performance.now() - loadEnd;
    await sleep(3_000); // late duplicates (a redelivery after the drop) get time to arrive
    delivered = await deliveriesTo(stack.mailApiUrl, addresses);
    const missing = addresses.filter((a) => !delivered.get(a));
    const twice = addresses.filter((a) => (delivered.get(a) ?? 0) > 1);
    report.check(
      missing.length === 0 && twice.length === 0,
      `invitation e-mails: ${addresses.length} invitees, ${addresses.length - missing.length} delivered ` +
        `(all within ${secs(allIn)} of the load's end), ${missing.length} missing, ${twice.length} delivered more than once`,
    );
    const messages = await sunkMessages(stack.mailApiUrl);
    const exportMails = jobs
      .filter((_j, i) => finals[i]!.status === 'completed')
      .map((j) => messages.filter((m) => m.text.includes(j)).length);
    report.check(
      exportMails.every((n) => n === 1),
      `export e-mails to the requester: ${exportMails.filter((n) => n === 1).length} of ${exportMails.length} ` +
        `completed exports exactly once (${exportMails.filter((n) => n === 0).length} missing, ${exportMails.filter((n) => n > 1).length} duplicated)`,
    );
  },
};
