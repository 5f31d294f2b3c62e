/**
 * autocannon, loaded once for every bench: it ships no type declarations, so this declares the
 * part of its programmatic API the benches use (https://github.com/mcollina/autocannon).
 */
import { createRequire } from 'node:module';

/** Latency (ms) or throughput (per second) statistics of a run. */
export interface AutocannonStats {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total?: number;
  p50: number;
  p99: number;
}

export interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  resets: number;
  mismatches: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  requests: AutocannonStats & { sent: number };
  latency: AutocannonStats & { totalCount: number };
}

/** One request of a `requests` sequence; `setupRequest` may rewrite it before each send. */
export interface AutocannonRequest {
  method?: string;
  path?: string;
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
  method?: string;
  headers?: Record<string, string>;
  body?: string;
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
