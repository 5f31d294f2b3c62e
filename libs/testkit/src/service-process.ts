import { migrateLatest, type Migration } from '@fieldhouse/db';
import { createTestDatabase } from './postgres.ts';
import { freeTcpPort, startNodeProcess, waitForListening, type TestProcess } from './process.ts';

/** A service's real entry point running on a fresh migrated database. */
export interface ServiceProcess {
  proc: TestProcess;
  /** Its API port and its metrics port (127.0.0.1). */
  port: number;
  metricsPort: number;
  /** Stops the process, then drops its database. */
  stop: () => Promise<void>;
}

/**
 * Runs `main` (a service's `main.ts`, as `npm start` does) with `NODE_ENV=test`, free `PORT`
 * and `METRICS_PORT`, `DATABASE_URL` of a fresh database `t_<label>_<hex>` migrated with
 * `migrations`, and `env`; resolves once both ports listen.
 */
export async function startServiceProcess(
  main: string,
  opts: { label: string; migrations: Migration[]; env: Record<string, string> },
): Promise<ServiceProcess> {
  const db = await createTestDatabase(opts.label);
  await migrateLatest(db.url, opts.migrations);
  const [port, metricsPort] = [await freeTcpPort(), await freeTcpPort()];
  const proc = startNodeProcess(main, {
    NODE_ENV: 'test',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATABASE_URL: db.url,
    ...opts.env,
  });
  const stop = async () => {
    await proc.stop();
    await db.drop();
  };
  try {
    await waitForListening(proc, port);
    await waitForListening(proc, metricsPort);
  } catch (err) {
    await stop();
    throw err;
  }
  return { proc, port, metricsPort, stop };
}
