/**
 * What a scenario found: named checks (pass or fail, with the figures that decided) and free
 * lines of figures, printed as the scenario ends.
 */
export interface Check {
  ok: boolean;
  text: string;
}

/** The result of one scenario, built as it runs. */
export class ScenarioReport {
  readonly checks: Check[] = [];
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  /** Records a check: `ok` decides, `text` says what was compared. */
  check(ok: boolean, text: string): boolean {
    this.checks.push({ ok, text });
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${text}`);
    return ok;
  }

  /** Prints a line of figures (no verdict). */
  info(text: string): void {
    console.log(`       ${text}`);
  }

  /** Records an error that stopped the scenario. */
  error(err: unknown): void {
    this.check(false, `scenario error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }

  get passed(): boolean {
    return this.checks.length > 0 && this.checks.every((c) => c.ok);
  }
}

/** Milliseconds as seconds with one decimal ("1.3 s"), or "never". */
export const secs = (ms: number | undefined) =>
  ms === undefined || !Number.isFinite(ms) ? 'never' : `${(ms / 1000).toFixed(1)} s`;
