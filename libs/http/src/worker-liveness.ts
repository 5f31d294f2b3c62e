import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Joi, loadConfig } from '@fieldhouse/config';
import type { Logger } from '@fieldhouse/logger';

/** The liveness port of a worker process, when it serves one. */
export interface WorkerLiveness {
  /** The port it listens on, or undefined when `HEALTH_PORT` is unset. */
  port: number | undefined;
  close: () => Promise<void>;
}

const livenessEnv = Joi.object<{ HEALTH_PORT?: number; HEALTH_HOST: string }>({
  HEALTH_PORT: Joi.number().port(),
  HEALTH_HOST: Joi.string().default('127.0.0.1'),
}).unknown(true);

/**
 * A worker's liveness endpoint (docs/reliability.md, "Liveness"): with `HEALTH_PORT` set
 * (`0`: any free port), `GET /healthz` on `HEALTH_HOST` (default 127.0.0.1) answers
 * `200 {"status":"ok"}` while the process's event loop turns; anything else is 404. It checks
 * no store on purpose: a hung store must not get every worker restarted in a loop (the store's
 * own check restarts the store). Workers have no API port, so this is what `npm start`'s
 * supervisor and the Kubernetes liveness probe call. Without `HEALTH_PORT` nothing listens.
 *
 * @throws ConfigError when `HEALTH_PORT` is not a port number.
 */
export async function serveWorkerLiveness(
  logger: Logger,
  env: Record<string, string | undefined> = process.env,
): Promise<WorkerLiveness> {
  const config = loadConfig(livenessEnv, env);
  if (config.HEALTH_PORT === undefined) return { port: undefined, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.HEALTH_PORT, config.HEALTH_HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info('liveness endpoint listening', { port, host: config.HEALTH_HOST });
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
