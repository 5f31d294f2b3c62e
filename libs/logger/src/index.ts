import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

export type Logger = winston.Logger;

/** What every log line written inside a request carries. */
export interface LogContext {
  requestId?: string;
  userId?: number | string;
}

/** Holds the request id and user id of the request being served, for every log line. */
export const logContext = new AsyncLocalStorage<LogContext>();

const addContext = winston.format((info) => {
  const ctx = logContext.getStore();
  if (ctx?.requestId && info.requestId === undefined) info.requestId = ctx.requestId;
  if (ctx?.userId !== undefined && info.userId === undefined) info.userId = ctx.userId;
  return info;
});

export interface LoggerOptions {
  service: string;
  level?: string;
  /** JSON lines (production) or coloured text (development). Default: JSON when NODE_ENV=production. */
  json?: boolean;
}

/**
 * Creates the process logger: JSON lines in production, readable text in development.
 * Each line carries `service`, and inside a request `requestId` and `userId` (from
 * {@link logContext}). Level `silent` writes nothing (used by tests).
 */
export function createLogger(opts: LoggerOptions): Logger {
  const json = opts.json ?? process.env.NODE_ENV === 'production';
  const level = opts.level ?? process.env.LOG_LEVEL ?? 'info';
  return winston.createLogger({
    level: level === 'silent' ? 'error' : level,
    silent: level === 'silent',
    defaultMeta: { service: opts.service },
    format: winston.format.combine(
      addContext(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      json
        ? winston.format.json()
        : winston.format.combine(
            winston.format.colorize(),
            winston.format.printf(({ timestamp, level: lvl, message, service, ...rest }) => {
              const extra = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
              return `${String(timestamp)} ${String(service)} ${lvl}: ${String(message)}${extra}`;
            }),
          ),
    ),
    transports: [new winston.transports.Console({ stderrLevels: ['error'] })],
  });
}

/** `url` with its user and password masked (`smtp://***@host:587`), for log lines and errors. */
export const redactCredentials = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');
