import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { components } from '../../api/generated/events.ts';

/** An invitee as the service sends it for the offline copy (docs/events.md, "Scanners that decide offline"). */
export type OfflineInvitee = components['schemas']['OfflineInvitee'];

/** An invitee in this browser's copy: as last synced, and whether this scanner admitted them offline. */
export interface ListedInvitee extends OfflineInvitee {
  event_id: string;
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
  | { kind: 'admit'; invitee: ListedInvitee | null; hash: string }
  | { kind: 'already'; invitee: ListedInvitee; at: string | null; by: string | null; here: boolean }
  | { kind: 'refuse'; result: 'unknown_code' | 'revoked'; invitee: ListedInvitee | null }
  | { kind: 'no_list' };

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
      if (old?.here_at && r.status === 'valid') {
        next.status = 'checked_in';
        next.here_at = old.here_at;
        next.checked_in_at = old.checked_in_at;
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
   */
  async decide(code: string): Promise<OfflineDecision> {
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
      if (signedInvite) return { kind: 'admit', invitee: null, hash };
      return this.size === 0
        ? { kind: 'no_list' }
        : { kind: 'refuse', result: 'unknown_code', invitee: null };
    }
    if (found.status === 'revoked') return { kind: 'refuse', result: 'revoked', invitee: found };
    if (found.status === 'checked_in')
      return {
        kind: 'already',
        invitee: found,
        at: found.here_at ?? found.checked_in_at,
        by: found.here_at ? null : found.scanne_par,
        here: found.here_at !== undefined,
      };
    return { kind: 'admit', invitee: found, hash };
  }

  /** Records an offline admission by this scanner (so a second scan here is "already in"). */
  async admitted(hash: string, at: string): Promise<void> {
    const found = this.byHash.get(hash);
    if (!found) return;
    const next: ListedInvitee = { ...found, status: 'checked_in', here_at: at, checked_in_at: at };
    this.put(next);
    await this.save([next]);
    this.notify();
  }

  /** Records what the service answered a scan online (checked in, or already), so the copy agrees at once. */
  async checkedIn(inviteId: string, at: string, by: string | null): Promise<void> {
    const h = this.hashById.get(inviteId);
    const found = h ? this.byHash.get(h) : undefined;
    if (!found || found.status === 'checked_in') return;
    const next: ListedInvitee = { ...found, status: 'checked_in', checked_in_at: at, scanne_par: by };
    this.put(next);
    await this.save([next]);
    this.notify();
  }
}
