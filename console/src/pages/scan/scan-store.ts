import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** A scanner device's credential in this browser, for one event (set up once by its setup URL). */
export interface DeviceCredential {
  event_id: string;
  device_id: string;
  device_name: string;
  /** `fhd_<id>|<secret>`, sent as `Authorization: Bearer`. */
  token: string;
  set_up_at: string;
}

/** A scan kept until the service has answered it (offline, or slower than the wait limit). */
export interface QueuedScan {
  /** The scan's id (a UUID): the service counts a nonce once, so sending again is safe. */
  nonce: string;
  event_id: string;
  code: string;
  /** ISO 8601 UTC, when the code was scanned: the check-in time the service records. */
  scanned_at: string;
  /**
   * Where and how it was scanned, as an online scan sends it (docs/events.md, "Gates",
   * "Parties"): the gate of a signed-in scanner, `exit`, and the people of a party (absent: the
   * entrance or the device's gate, an entry, everyone who can). Scans queued before these existed
   * have none, and mean what they always meant.
   */
  gate_id?: string;
  direction?: 'exit';
  people?: number;
}

/**
 * A queued scan the service refused when it was synchronised: most often the same invitee
 * admitted offline at two doors (`already_checked_in`, with the first door and time). Kept
 * until door staff dismiss it.
 */
export interface FollowUp extends QueuedScan {
  result: string;
  message: string;
  nom: string | null;
  first_checked_in_at: string | null;
  first_scanne_par: string | null;
}

interface ScanDb extends DBSchema {
  credentials: { key: string; value: DeviceCredential };
  queue: { key: string; value: QueuedScan; indexes: { by_event: string } };
  followups: { key: string; value: FollowUp; indexes: { by_event: string } };
}

let db: Promise<IDBPDatabase<ScanDb>> | undefined;

/**
 * The door scanner's store in this browser (IndexedDB `fieldhouse-scan`, through idb): device
 * credentials by event, the queue of scans not yet answered, and the follow-ups found at sync.
 * It survives reloads and closed tabs; a queued scan leaves it only once the service answered it.
 */
function open(): Promise<IDBPDatabase<ScanDb>> {
  db ??= openDB<ScanDb>('fieldhouse-scan', 1, {
    upgrade(d) {
      d.createObjectStore('credentials', { keyPath: 'event_id' });
      d.createObjectStore('queue', { keyPath: 'nonce' }).createIndex('by_event', 'event_id');
      d.createObjectStore('followups', { keyPath: 'nonce' }).createIndex('by_event', 'event_id');
    },
  });
  return db;
}

/** The device credential of this event in this browser, if it was set up here. */
export const credentialOf = async (eventId: string) => (await open()).get('credentials', eventId);

/** Keeps a device credential (replacing an earlier one of the same event). */
export const saveCredential = async (c: DeviceCredential) => {
  await (await open()).put('credentials', c);
};

/** The event's queued scans, oldest first. */
export const queuedScans = async (eventId: string) =>
  (await (await open()).getAllFromIndex('queue', 'by_event', eventId)).sort((a, b) =>
    a.scanned_at.localeCompare(b.scanned_at),
  );

export const queueScan = async (scan: QueuedScan) => {
  await (await open()).put('queue', scan);
};

/** Removes answered scans from the queue and records the follow-ups among them, in one transaction. */
export async function settleScans(nonces: string[], followUps: FollowUp[]): Promise<void> {
  const tx = (await open()).transaction(['queue', 'followups'], 'readwrite');
  await Promise.all([
    ...nonces.map((n) => tx.objectStore('queue').delete(n)),
    ...followUps.map((f) => tx.objectStore('followups').put(f)),
    tx.done,
  ]);
}

/** The event's follow-ups, newest scan first. */
export const followUpsOf = async (eventId: string) =>
  (await (await open()).getAllFromIndex('followups', 'by_event', eventId)).sort((a, b) =>
    b.scanned_at.localeCompare(a.scanned_at),
  );

export const dismissFollowUp = async (nonce: string) => {
  await (await open()).delete('followups', nonce);
};
