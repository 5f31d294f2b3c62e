/**
 * What a phase of `npm run bench:webhooks` cost: CPU time per delivery of each process
 * (bench/lib/child.ts `cpuMeter`, from /proc, PostgreSQL and RabbitMQ with their child
 * processes), the cores each kept busy, the busy time of the whole machine beyond those (another
 * session's tests, say: the figures of a disturbed run say so), and the events database's
 * transactions and row writes per delivery (pg_stat_database).
 */
import { readFileSync } from 'node:fs';
import type { Knex } from '@fieldhouse/db';
import { cpuMeter, sleep } from '../lib/child.ts';
import { nowMs } from './common.ts';

/**
 * How long PostgreSQL may take to publish a backend's counts: at most once a second while busy,
 * and within 10 s once idle. Waited for after a phase, and before the first one.
 */
export const STATS_SETTLE_MS = 11_000;

/** Linux's USER_HZ (the unit of /proc/stat). */
const CLOCK_TICKS = 100;

/** Busy CPU time of the machine so far, all cores, ms (/proc/stat: all but idle and iowait); NaN off Linux. */
function machineBusyMs(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

const ACTIVITY = ['commits', 'inserted', 'updated', 'deleted'] as const;
type Activity = Record<(typeof ACTIVITY)[number], number>;

/** The database's counters so far. */
async function databaseActivity(db: Knex): Promise<Activity> {
  const { rows } = (await db.raw(
    `SELECT xact_commit AS commits, tup_inserted AS inserted, tup_updated AS updated, tup_deleted AS deleted
     FROM pg_stat_database WHERE datname = current_database()`,
  )) as { rows: Array<Record<keyof Activity, string | number>> };
  return Object.fromEntries(ACTIVITY.map((k) => [k, Number(rows[0]![k])])) as Activity;
}

export interface PhaseCostFigures {
  /** CPU µs per delivery, by process (`self` is the bench). */
  cpu: Record<string, number>;
  /** Cores kept busy during the phase, by process, and `other`: the rest of the machine. */
  cores: Record<string, number>;
  /** The events database per delivery: transactions, rows inserted, updated, deleted. */
  database: Activity;
}

/** Measures one phase: {@link start} before it, {@link stop} once its last delivery arrived. */
export class PhaseCost {
  private readonly meter: ReturnType<typeof cpuMeter>;
  private readonly db: Knex;
  private started = { wall: 0, machine: 0, database: undefined as Activity | undefined };

  constructor(pids: Record<string, number | undefined>, db: Knex) {
    this.meter = cpuMeter(pids);
    this.db = db;
  }

  async start(): Promise<void> {
    const database = await databaseActivity(this.db);
    this.meter.start();
    this.started = { wall: nowMs(), machine: machineBusyMs(), database };
  }

  async stop(deliveries: number): Promise<PhaseCostFigures> {
    const cpu = this.meter.perRequest(deliveries);
    const wallMs = nowMs() - this.started.wall;
    const machine = (machineBusyMs() - this.started.machine) / wallMs;
    const cores = Object.fromEntries(
      Object.entries(cpu).map(([k, us]) => [k, (us * deliveries) / 1000 / wallMs]),
    );
    const ours = Object.values(cores).filter(Number.isFinite);
    cores.other = machine - ours.reduce((a, b) => a + b, 0);
    await sleep(STATS_SETTLE_MS);
    const after = await databaseActivity(this.db);
    const before = this.started.database!;
    const database = Object.fromEntries(
      ACTIVITY.map((k) => [k, (after[k] - before[k]) / deliveries]),
    ) as Activity;
    return { cpu, cores, database };
  }
}

/** Prints the cores line and the database line of a phase. */
export function printCost(name: string, f: PhaseCostFigures, cpus: number): void {
  const cores = Object.entries(f.cores)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
  console.log(`cores busy, ${name}: ${cores} (of ${cpus})`);
  const d = f.database;
  console.log(
    `events database per delivery, ${name}: ${d.commits.toFixed(2)} transactions, rows inserted ` +
      `${d.inserted.toFixed(2)}, updated ${d.updated.toFixed(2)}, deleted ${d.deleted.toFixed(2)}`,
  );
}
