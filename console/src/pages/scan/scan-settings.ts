import { useSyncExternalStore } from 'react';

/**
 * Where and how the next scans apply (docs/events.md, "Gates", "Parties"): the gate a signed-in
 * scanner works at (a scanner device's gate is set by the owner, so null here), the direction,
 * and how many people of a party the next scan admits (null: all who can). The people count
 * applies to one scan and then returns to "all".
 */
export interface ScanSettings {
  gateId: string | null;
  direction: 'entry' | 'exit';
  people: number | null;
}

let settings: ScanSettings = { gateId: null, direction: 'entry', people: null };
const listeners = new Set<() => void>();

/** Changes the settings of the next scans. */
export function setScanSettings(change: Partial<ScanSettings>): void {
  settings = { ...settings, ...change };
  for (const l of listeners) l();
}

/** The settings as a React state. */
export const useScanSettings = (): ScanSettings =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => settings,
  );

/**
 * The fields a scan sends for the current settings (`gate_id`, `direction`, `people`: only those
 * that differ from the defaults, so a scan without settings is what it always was), and the
 * people count goes back to "all" for the next scan.
 */
export function takeScanFields(): { gate_id?: string; direction?: 'exit'; people?: number } {
  const { gateId, direction, people } = settings;
  if (people !== null) setScanSettings({ people: null });
  return {
    ...(gateId ? { gate_id: gateId } : {}),
    ...(direction === 'exit' ? { direction } : {}),
    ...(people !== null ? { people } : {}),
  };
}
