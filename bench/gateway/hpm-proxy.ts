/**
 * The floor of `npm run bench:gateway` for a gateway built on http-proxy-middleware (issue #21):
 * a plain `node:http` server whose every request goes to one `createProxyMiddleware` with the
 * gateway's proxy options (keep-alive agent, `changeOrigin`, `xfwd`, plugins ejected, the
 * proxy-events plugin), and nothing else: no Express, no identity, no limits, no headers added.
 * What it costs over bare-proxy.ts is what the library the design names costs by itself.
 *
 * Environment: PORT (listen on 127.0.0.1), TARGET (`http://host:port` of the service).
 */
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createProxyMiddleware, proxyEventsPlugin } from 'http-proxy-middleware';

const port = Number(process.env.PORT);
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
  target: new URL(process.env.TARGET ?? ''),
  changeOrigin: true,
  xfwd: true,
  agent,
  ejectPlugins: true,
  plugins: [proxyEventsPlugin],
  on: {
    error: (_err, _req, res) => {
      if ('writeHead' in res && !res.headersSent) res.writeHead(502);
      res.end();
    },
  },
});

const server = createServer((req, res) => {
  void proxy(req, res, () => {
    res.writeHead(404);
    res.end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
