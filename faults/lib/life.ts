/**
 * The life of the fault suite's process: clean-up steps (scripts/lib/cleanup.ts, shared with
 * the benches) run once in reverse order at the end, on failure, or on SIGINT/SIGTERM.
 */
export { cleanUp, onCleanup } from '../../scripts/lib/cleanup.ts';

/** Calls `onSignal` (once) on SIGINT or SIGTERM. */
export function onInterrupt(onSignal: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => onSignal(signal));
}
