/**
 * Clean-up steps of a tool process (a bench, the fault suite): registered as things are
 * created (a database, a vhost, a process...), run once in reverse order at the end, on failure
 * or on a signal. A failing step is reported and the others still run.
 */
const steps: Array<{ name: string; run: () => Promise<unknown> }> = [];
let cleaning: Promise<void> | undefined;

/** Registers a clean-up step; steps run last-registered first. */
export function onCleanup(name: string, run: () => Promise<unknown>): void {
  steps.push({ name, run });
}

/** Runs every clean-up step once (later calls wait for the first). */
export function cleanUp(): Promise<void> {
  return (cleaning ??= (async () => {
    for (const step of [...steps].reverse()) {
      try {
        await step.run();
      } catch (err) {
        console.error(`clean-up: ${step.name} failed: ${String(err)}`);
      }
    }
  })());
}
