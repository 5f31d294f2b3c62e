import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { components } from '../../api/generated/events.ts';

/** An invitee as the service sends it for the offline copy (docs/events.md, "Scanners that decide offline"). */
export type OfflineInvitee = components['schemas']['OfflineInvitee'];

/** An invitee in this browser's copy: as last synced, and whether this scanner admitted them offline. */
export interface ListedInvitee extends Omit<OfflineInvitee, 'seats' | 'arrived'> {
  event_id: string;
  /** A party's seats and people arrived (absent in copies stored before they were sent: one seat). */
  seats?: number;
  arrived?: number;
  /** When this scanner admitted them while offline (ISO 8601), until the service's copy says so too. */
  here_at?: string;
}

/** Where the copy of one event stands. */
interface ListMeta {
  event_id: string;
  /** The changes cursor once the download is complete; null while it is not. */
  cursor: string | null;
  /** The next page of an unfinished download. */
  next_page: string | null;
  public_key: string | null;
  /** Invite ids revoked (from `GET .../checkin/keys`), for signed codes not in the copy. */
  revoked: string[];
  synced_at: string | null;
}

interface ListDb extends DBSchema {
  invitees: { key: [string, string]; value: ListedInvitee; indexes: { by_event: string } };
  meta: { key: string; value: ListMeta };
}

let db: Promise<IDBPDatabase<ListDb>> | undefined;

/**
 * The offline copies of guest lists in this browser (IndexedDB `fieldhouse-scan-list`, through
 * idb): invitees by event and code hash, and each event's cursor. A store of its own, so the
 * scanner's queue (`fieldhouse-scan`) keeps its schema.
 */
function open(): Promise<IDBPDatabase<ListDb>> {
  db ??= openDB<ListDb>('fieldhouse-scan-list', 1, {
    upgrade(d) {
      d.createObjectStore('invitees', { keyPath: ['event_id', 'code_hash'] }).createIndex(
        'by_event',
        'event_id',
      );
      d.createObjectStore('meta', { keyPath: 'event_id' });
    },
  });
  return db;
}

/** What the scanner's API gives for the copy (a device's credential or a staff member's session). */
export interface ListApi {
  snapshot: (page: string | undefined) => Promise<components['schemas']['OfflineSnapshotPage']>;
  changes: (cursor: string) => Promise<components['schemas']['OfflineChanges']>;
  keys: () => Promise<components['schemas']['SigningKeys'] | null>;
}

/** SHA-256 of a canonical code, first 16 bytes, base64url: as the service computes `code_hash`. */
async function codeHash(code: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)));
  let bin = '';
  for (const b of digest.subarray(0, 16)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding), or null for a symbol outside it. */
function unbase32(text: string): Uint8Array | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return null;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

const fromBase64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const uuidBytes = (id: string) =>
  Uint8Array.from(
    id
      .replace(/-/g, '')
      .match(/../g)!
      .map((h) => parseInt(h, 16)),
  );
const uuidOf = (b: Uint8Array) => {
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** Whether a canonical code is a signed one (`FH1...`, docs/events.md, "Signed codes"). */
const isSignedCode = (code: string) => code.startsWith('FH1');

/**
 * Checks a signed code with the event's Ed25519 public key (WebCrypto): the invite id and code it
 * carries when the signature is the event's, else null (forged, altered, another event's).
 */
async function verifySignedCode(
  publicKey: string,
  eventId: string,
  signed: string,
): Promise<{ inviteId: string; code: string } | null> {
  const bytes = unbase32(signed.slice(3));
  if (!bytes || bytes.length <= 80) return null;
  const id = bytes.slice(0, 16);
  const signature = bytes.slice(16, 80);
  const codeBytes = bytes.slice(80);
  const code = new TextDecoder().decode(codeBytes);
  if (!/^[0-9A-Z]+$/.test(code)) return null;
  const domain = new TextEncoder().encode('fieldhouse-code-v1\0');
  const message = new Uint8Array([...domain, ...uuidBytes(eventId.toLowerCase()), ...id, ...codeBytes]);
  try {
    const key = await crypto.subtle.importKey('raw', fromBase64url(publicKey), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    const ok = await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message);
    return ok ? { inviteId: uuidOf(id), code } : null;
  } catch {
    return null;
  }
}

/** What the copy says of a scanned code while offline: admit (green), already in (amber), refuse (red). */
export type OfflineDecision =
  | {
      kind: 'admit';
      invitee: ListedInvitee | null;
      hash: string;
      /** People let in by this scan (all who remain, unless the scan asked for fewer). */
      people: number;
      /** A party's people arrived once this scan counts, and its seats; null for one seat. */
      party: { arrived: number; seats: number } | null;
    }
  /** An exit (the copy knows the invitee came in; how many are inside a gate the service says on sync). */
  | { kind: 'exit'; invitee: ListedInvitee; hash: string }
  | { kind: 'already'; invitee: ListedInvitee; at: string | null; by: string | null; here: boolean }
  | {
      kind: 'refuse';
      result: 'unknown_code' | 'revoked' | 'seats_exceeded' | 'not_inside';
      invitee: ListedInvitee | null;
      /** For `seats_exceeded`: how many of the party may still come in. */
      remaining?: number;
    }
  | { kind: 'no_list' };

/** How a scan asks to be applied: exit, and how many people of a party (absent: all who can). */
interface ScanAsk {
  direction?: 'entry' | 'exit';
  people?: number;
}

/** Seats and arrived people of an invitee, for copies stored before they were sent (one seat). */
const partyOf = (r: ListedInvitee) => {
  const seats = r.seats ?? 1;
  const arrived = r.arrived ?? (r.status === 'checked_in' ? seats : 0);
  return { seats, arrived };
};

/**
 * The offline copy of one event's guest list: kept in IndexedDB, held in memory (a map by code
 * hash, so a decision is one lookup), downloaded a page at a time and kept up to date from the
 * changes feed.
 */
export class OfflineList {
  private byHash = new Map<string, ListedInvitee>();
  private hashById = new Map<string, string>();
  private meta: ListMeta;
  private listeners = new Set<() => void>();
  private constructor(readonly eventId: string) {
    this.meta = {
      event_id: eventId,
      cursor: null,
      next_page: null,
      public_key: null,
      revoked: [],
      synced_at: null,
    };
  }

  /** The copy of `eventId` as stored in this browser (empty if never downloaded). */
  static async load(eventId: string): Promise<OfflineList> {
    const list = new OfflineList(eventId);
    const d = await open();
    const [meta, rows] = await Promise.all([
      d.get('meta', eventId),
      d.getAllFromIndex('invitees', 'by_event', eventId),
    ]);
    if (meta) list.meta = meta;
    for (const r of rows) list.put(r);
    return list;
  }

  /** Called after every change of the copy. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify() {
    for (const fn of this.listeners) fn();
  }

  private put(r: ListedInvitee) {
    this.byHash.set(r.code_hash, r);
    this.hashById.set(r.id, r.code_hash);
  }

  /** Invitees in the copy. */
  get size(): number {
    return this.byHash.size;
  }

  /** Whether the download is complete (changes are then read from the cursor). */
  get ready(): boolean {
    return this.meta.cursor !== null;
  }

  /** When the copy last heard from the service (ISO 8601), or null. */
  get syncedAt(): string | null {
    return this.meta.synced_at;
  }

  /** Applies invitees from the service, keeping this scanner's offline admissions until the service has them. */
  private merge(rows: OfflineInvitee[]): ListedInvitee[] {
    const out: ListedInvitee[] = [];
    for (const r of rows) {
      const old =
        this.byHash.get(r.code_hash) ??
        (this.hashById.has(r.id) ? this.byHash.get(this.hashById.get(r.id)!) : undefined);
      if (old && old.code_hash !== r.code_hash) this.byHash.delete(old.code_hash);
      const next: ListedInvitee = { ...r, event_id: this.eventId };
      // People this scanner let in offline count until the service's copy has as many.
      const mine = old?.here_at ? partyOf(old).arrived : 0;
      if (old?.here_at && (r.status === 'valid' || (r.arrived ?? 1) < mine)) {
        next.status = 'checked_in';
        next.here_at = old.here_at;
        next.checked_in_at = r.checked_in_at ?? old.checked_in_at;
        next.arrived = Math.max(r.arrived ?? 0, mine);
      }
      this.put(next);
      out.push(next);
    }
    return out;
  }

  private async save(rows: ListedInvitee[], deletedHashes: string[] = []) {
    const tx = (await open()).transaction(['invitees', 'meta'], 'readwrite');
    const store = tx.objectStore('invitees');
    await Promise.all([
      ...rows.map((r) => store.put(r)),
      ...deletedHashes.map((h) => store.delete([this.eventId, h])),
      tx.objectStore('meta').put(this.meta),
      tx.done,
    ]);
  }

  /** Downloads the list (or the rest of an unfinished download), a page at a time. */
  async download(api: ListApi): Promise<void> {
    let page = this.meta.next_page ?? undefined;
    for (;;) {
      const got = await api.snapshot(page);
      const rows = this.merge(got.invitees);
      this.meta = { ...this.meta, next_page: got.next_page, cursor: got.cursor, public_key: got.public_key };
      if (!got.next_page) this.meta.synced_at = new Date().toISOString();
      await this.save(rows);
      this.notify();
      if (!got.next_page) break;
      page = got.next_page;
    }
    if (this.meta.public_key) {
      const keys = await api.keys().catch(() => null);
      if (keys) {
        this.meta.revoked = keys.revoked;
        await this.save([]);
      }
    }
  }

  /** Reads the changes since the cursor (all of them, page after page) and applies them. */
  async pull(api: ListApi): Promise<void> {
    let cursor = this.meta.cursor;
    if (!cursor) return this.download(api);
    for (;;) {
      const got = await api.changes(cursor);
      const rows = this.merge(got.changes);
      const gone: string[] = [];
      for (const id of got.deleted) {
        const h = this.hashById.get(id);
        if (!h) continue;
        this.byHash.delete(h);
        this.hashById.delete(id);
        gone.push(h);
      }
      cursor = got.cursor;
      this.meta = { ...this.meta, cursor, synced_at: new Date().toISOString() };
      await this.save(rows, gone);
      // The time of the last update shows on every pull.
      this.notify();
      if (!got.more) break;
    }
  }

  /**
   * What the copy says of a canonical code, without the network: unknown (red), revoked (red),
   * already in (amber: admitted by this scanner, or checked in as of the last sync), else admit
   * (green, with the name). A signed code is checked with the event's public key first: a forged
   * one is unknown; a real one not in the copy is admitted unless its invite is on the revocation list.
   * A party (`seats` > 1) is "already in" only once all its people arrived: until then a scan lets
   * in those who remain (or `ask.people` of them; more than remain is `seats_exceeded`), "3 of 5
   * arrived", as the service answers online. An exit is let through for an invitee who came in.
   */
  async decide(code: string, ask: ScanAsk = {}): Promise<OfflineDecision> {
    let lookup = code;
    let signedInvite: string | null = null;
    if (isSignedCode(code)) {
      const real = this.meta.public_key
        ? await verifySignedCode(this.meta.public_key, this.eventId, code)
        : null;
      if (!real) return { kind: 'refuse', result: 'unknown_code', invitee: null };
      lookup = real.code;
      signedInvite = real.inviteId;
    }
    const hash = await codeHash(lookup);
    const found = this.byHash.get(hash);
    if (!found) {
      if (signedInvite && this.meta.revoked.includes(signedInvite))
        return { kind: 'refuse', result: 'revoked', invitee: null };
      if (signedInvite && ask.direction !== 'exit')
        return { kind: 'admit', invitee: null, hash, people: ask.people ?? 1, party: null };
      return this.size === 0 || signedInvite
        ? { kind: 'no_list' }
        : { kind: 'refuse', result: 'unknown_code', invitee: null };
    }
    if (found.status === 'revoked') return { kind: 'refuse', result: 'revoked', invitee: found };
    const { seats, arrived } = partyOf(found);
    if (ask.direction === 'exit')
      return found.status === 'checked_in'
        ? { kind: 'exit', invitee: found, hash }
        : { kind: 'refuse', result: 'not_inside', invitee: found };
    const remaining = seats - arrived;
    if (found.status === 'checked_in' && remaining <= 0)
      return {
        kind: 'already',
        invitee: found,
        at: found.here_at ?? found.checked_in_at,
        by: found.here_at ? null : found.scanne_par,
        here: found.here_at !== undefined,
      };
    if (ask.people !== undefined && ask.people > remaining)
      return { kind: 'refuse', result: 'seats_exceeded', invitee: found, remaining };
    const people = ask.people ?? remaining;
    return {
      kind: 'admit',
      invitee: found,
      hash,
      people,
      party: seats > 1 ? { arrived: arrived + people, seats } : null,
    };
  }

  /** Whether a canonical code is a party's (more than one seat) in the copy. */
  async isParty(code: string): Promise<boolean> {
    if (isSignedCode(code)) return false;
    const found = this.byHash.get(await codeHash(code));
    return (found?.seats ?? 1) > 1;
  }

  /**
   * Records an offline admission of `people` by this scanner (so a scan here is "already in" once
   * the whole party is in).
   */
  async admitted(hash: string, at: string, people = 1): Promise<void> {
    const found = this.byHash.get(hash);
    if (!found) return;
    const { seats, arrived } = partyOf(found);
    const next: ListedInvitee = {
      ...found,
      status: 'checked_in',
      here_at: at,
      checked_in_at: found.checked_in_at ?? at,
      arrived: Math.min(seats, arrived + people),
    };
    this.put(next);
    await this.save([next]);
    this.notify();
  }

  /**
   * Records what the service answered a scan online (checked in, with the party's people arrived
   * when it said), so the copy agrees at once.
   */
  async checkedIn(inviteId: string, at: string, by: string | null, arrived?: number): Promise<void> {
    const h = this.hashById.get(inviteId);
    const found = h ? this.byHash.get(h) : undefined;
    if (!found) return;
    const was = partyOf(found);
    const now = arrived ?? was.seats;
    if (found.status === 'checked_in' && now <= was.arrived) return;
    const next: ListedInvitee = {
      ...found,
      status: 'checked_in',
      checked_in_at: found.status === 'checked_in' ? found.checked_in_at : at,
      scanne_par: found.status === 'checked_in' ? found.scanne_par : by,
      arrived: Math.min(was.seats, Math.max(now, was.arrived)),
    };
    this.put(next);
    await this.save([next]);
    this.notify();
  }
}
