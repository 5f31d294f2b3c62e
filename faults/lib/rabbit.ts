import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { sleep } from '@fieldhouse/testkit';

const run = promisify(execFile);

/** Runs `rabbitmqctl <args>` (quiet); rejects with its output when it fails. */
export async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await run('rabbitmqctl', ['-q', ...args], { timeout: 60_000 });
  return stdout;
}

/** Creates vhost `name` on the shared broker, with every permission for `guest`. */
export async function addVhost(name: string): Promise<void> {
  await rabbitmqctl('add_vhost', name);
  await rabbitmqctl('set_permissions', '-p', name, 'guest', '.*', '.*', '.*');
}

/** Deletes vhost `name` with its queues and exchanges. */
export async function deleteVhost(name: string): Promise<void> {
  await rabbitmqctl('delete_vhost', name);
}

/** Closes every client connection of vhost `name` (the clients see a connection-forced close). */
export async function closeAllConnections(name: string, reason = 'fault'): Promise<void> {
  await rabbitmqctl('close_all_connections', '-p', name, reason);
}

/** The AMQP URL of vhost `name` on the broker of `baseUrl`. */
export const vhostUrl = (baseUrl: string, name: string): string =>
  Object.assign(new URL(baseUrl), { pathname: `/${encodeURIComponent(name)}` }).toString();

/**
 * Resolves true once queue `queue` of vhost `vhost` holds no message (ready or unacknowledged),
 * false after `timeoutMs`.
 */
export async function queueDrained(vhost: string, queue: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const out = await rabbitmqctl('list_queues', '-p', vhost, '--no-table-headers', 'name', 'messages');
    const line = out.split('\n').find((l) => l.split(/\s+/)[0] === queue);
    if (line && Number(line.trim().split(/\s+/)[1]) === 0) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
}
