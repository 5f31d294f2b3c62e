import { startSmtpSink } from './index.ts';

const sink = await startSmtpSink({
  host: process.env.SMTP_SINK_HOST ?? '127.0.0.1',
  smtpPort: Number(process.env.SMTP_SINK_PORT ?? 1025),
  httpPort: Number(process.env.SMTP_SINK_HTTP_PORT ?? 8025),
});
console.log(
  `SMTP sink: smtp://127.0.0.1:${sink.smtpPort}, messages at http://127.0.0.1:${sink.httpPort}/messages`,
);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void sink.close().then(() => process.exit(0)));
