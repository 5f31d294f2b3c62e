/**
 * The reference of `npm run bench:gateway` (issue #21): the barest useful Node.js reverse proxy,
 * `http.request` over a keep-alive agent and `pipe` both ways, nothing else (no parsing, no
 * authentication, no headers added). The gateway's cost is judged against this one's.
 *
 * Environment: PORT (listen on 127.0.0.1), TARGET (`http://host:port` of the service).
 */
import { Agent, createServer, request } from 'node:http';

const port = Number(process.env.PORT);
const target = new URL(process.env.TARGET ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });

const server = createServer((req, res) => {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
