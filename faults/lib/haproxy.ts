/**
 * The load balancer of the replicas suite: HAProxy from Debian's package (`apt-get install
 * haproxy`; `HAPROXY_BIN` points to another binary), run in the foreground by the suite with a
 * configuration written here. One frontend per tier (the gateways for the clients; each service
 * for the gateways), each balancing round robin over its replicas, with:
 * - health checks on `GET /readyz` every 500 ms, each given 3 s, a replica leaving the rotation
 *   after two failed checks in a row (a stopping one refuses connections, then 503) and joining
 *   after one good check. As tolerant as the manifests' readiness probe (`timeoutSeconds: 3`,
 *   `failureThreshold: 2`): with one check of 500 ms that failed once, a burst of 160
 *   check-ins that kept the events replicas' `/readyz` (a query on the busy pool) past 500 ms
 *   took both out of rotation at once, and the balancer answered 503;
 * - retries on another replica when a connection is refused or a replica closes it without an
 *   answer (`retry-on conn-failure empty-response`, `option redispatch`): the only failures a
 *   rolling restart can cause, and retry-safe, since the request was not processed (or carries
 *   its write's retry key, docs/reliability.md);
 * - an `x-served-by-<tier>` response header naming the replica that answered, which the suite
 *   reads to know which replica took a write (the gateway passes the services' headers on).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForPort } from '../../scripts/lib/net.ts';
import { startProcess, type Managed, type OutputOptions } from '../../scripts/lib/processes.ts';

/** One balanced tier: clients connect to `port`, HAProxy forwards to `servers`. */
export interface Tier {
  /** `gateway`, `collection`... (the frontend's and the header's name). */
  name: string;
  port: number;
  servers: Array<{ name: string; port: number }>;
}

/** The HAProxy configuration of `tiers` (text of haproxy.cfg). */
function haproxyConfig(tiers: Tier[]): string {
  const lines = [
    'global',
    '  maxconn 4000',
    '  hard-stop-after 5s',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // Long idle timeouts: SSE streams stay open, and a keep-alive socket of the gateway's pool
    // is never closed under it by the balancer (the services' own keep-alive timeout is 65 s).
    '  timeout client 10m',
    '  timeout server 10m',
    '  timeout http-keep-alive 10m',
    '  timeout http-request 30s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    '  option httpchk',
    '  http-check send meth GET uri /readyz',
    '  http-check expect status 200',
    '  timeout check 3s',
    '  default-server check inter 500ms fastinter 250ms downinter 500ms rise 1 fall 2',
    '',
  ];
  for (const t of tiers) {
    lines.push(
      `frontend ${t.name}`,
      `  bind 127.0.0.1:${t.port}`,
      '  option forwardfor',
      `  default_backend ${t.name}-replicas`,
      '',
      `backend ${t.name}-replicas`,
      '  balance roundrobin',
      `  http-response set-header x-served-by-${t.name} %[srv_name]`,
      ...t.servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port}`),
      '',
    );
  }
  return lines.join('\n');
}

/** The HAProxy binary: `HAPROXY_BIN`, else Debian's `/usr/sbin/haproxy`, else `haproxy` on PATH. */
function haproxyBin(): string {
  if (process.env.HAPROXY_BIN) return process.env.HAPROXY_BIN;
  return existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
}

/**
 * Writes the configuration of `tiers` to `<dir>/haproxy.cfg`, checks it (`haproxy -c`) and
 * starts HAProxy in the foreground (`-db`); resolves once every frontend accepts connections.
 */
export async function startHaproxy(dir: string, tiers: Tier[], opts: OutputOptions = {}): Promise<Managed> {
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(tiers));
  const check = await startProcess('haproxy -c', haproxyBin(), ['-c', '-q', '-f', cfg], {}, dir, opts).exited;
  if (check.code !== 0) throw new Error(`haproxy -c refused ${cfg} (code ${check.code})`);
  const managed = startProcess('load-balancer', haproxyBin(), ['-db', '-f', cfg], {}, dir, opts);
  await Promise.race([
    Promise.all(tiers.map((t) => waitForPort(t.port, 10_000))),
    managed.exited.then((s) => {
      throw new Error(`haproxy exited at start (code ${s.code}, signal ${s.signal})`);
    }),
  ]);
  return managed;
}
