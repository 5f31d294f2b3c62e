// The counters' types live in types.ts, which data/counters.ts (their Redis side) shares; kept
// here for the importers of this module's old path until they import types.ts.
export type { CounterSnapshot } from './types.ts';
