/**
 * autocannon, loaded once for every bench: it ships no type declarations, so this declares the
 * part of its programmatic API the benches use (https://github.com/mcollina/autocannon).
 */
import { createRequire } from 'node:module';

/** The part of a run's result that bench/lib/load.ts reads. */
export interface AutocannonResult {
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

/** One request of a `requests` sequence; `setupRequest` may rewrite it before each send. */
export interface AutocannonRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds. */
  timeout?: number;
  /** Requests per second over all connections. */
  overallRate?: number;
  requests?: AutocannonRequest[];
}

export interface AutocannonInstance {
  on(event: 'response', fn: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
  on(event: 'reqError', fn: (err: Error) => void): this;
  stop(): void;
}

export type Autocannon = (
  opts: AutocannonOptions,
  done: (err: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
