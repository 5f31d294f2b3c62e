import { createHash } from 'node:crypto';
import { invitesByIds, type InviteKey, type OfflineInviteRow } from '../data/offline.ts';
import type { Db } from '../data/tx.ts';

/**
 * An invitee as a scanner keeps it offline (docs/events.md, "Scanners that decide offline"). The
 * code itself is not sent: `code_hash` is the first 16 bytes of SHA-256 of the canonical code
 * (upper case, no spaces or dashes), base64url; the scanner hashes what it reads the same way.
 * `seats` and `arrived` let it decide a party offline ("3 of 5 arrived") as the service would.
 */
export interface OfflineInvitee {
  id: string;
  nom: string;
  type_invite: string;
  code_hash: string;
  /** `valid` (may enter), `checked_in` (present: when and by whom), `revoked`. */
  status: 'valid' | 'checked_in' | 'revoked';
  checked_in_at: string | null;
  scanne_par: string | null;
  /** People the code admits (1 to 100: a party, docs/events.md "Parties"). */
  seats: number;
  /** People of the party who came in (0 to `seats`; `checked_in` once it is above 0). */
  arrived: number;
}

/**
 * The JSON text of a value of type `T`, sent as it is (the HTTP edge splices it into the
 * answer instead of serializing the value).
 */
export type JsonText<T> = string & { readonly jsonOf?: T };

/** SHA-256 of a canonical code, first 16 bytes, base64url (22 characters). */
const codeHash = (code: string): string =>
  createHash('sha256').update(code, 'ascii').digest().subarray(0, 16).toString('base64url');

function inviteeOf(row: OfflineInviteRow): OfflineInvitee {
  return {
    id: row.id,
    nom: row.nom,
    type_invite: row.type_invite,
    code_hash: codeHash(row.code_unique),
    status: row.revoked_at ? 'revoked' : row.presence ? 'checked_in' : 'valid',
    checked_in_at: row.checked_in_at ? row.checked_in_at.toISOString() : null,
    scanne_par: row.scanne_par,
    seats: row.seats,
    arrived: row.arrived,
  };
}

/**
 * The invitees of scanners' pages, each rendered once per version (docs/events.md, "Speed of
 * the changes feed"): 100 scanners pulling the same changes every few seconds would otherwise
 * each read, shape and serialize the same thousands of rows. A version is the invite's id and
 * `changed_xid`, the transaction that last wrote it: once committed, that transaction's row is
 * final, so its JSON never goes stale; a newer write has another `changed_xid` and is rendered
 * anew. Up to `max` invitees are kept (the oldest rendered go first), per process.
 */
export class OfflineInvitees {
  private readonly rendered = new Map<string, { xid: string; json: string }>();
  private readonly max: number;

  constructor(max = 50_000) {
    this.max = max;
  }

  /**
   * The JSON array of the invitees of `keys`, in their order: from what was rendered for the
   * key's version, else read (one query for all the others) and rendered. An invite read
   * in a newer version than its key (written since the key was read) is sent as it is now (it
   * comes again with the next changes, which applying twice does not alter); one deleted since
   * is left out (its deletion comes with the changes). `version` names the versions sent (a
   * digest of their ids and transaction ids): the same `version`, the same JSON.
   */
  async json(db: Db, keys: InviteKey[]): Promise<{ json: JsonText<OfflineInvitee[]>; version: string }> {
    const parts = new Array<{ xid: string; json: string } | undefined>(keys.length);
    const missing: number[] = [];
    keys.forEach((k, i) => {
      const hit = this.rendered.get(k.id);
      if (hit?.xid === k.xid) parts[i] = hit;
      else missing.push(i);
    });
    if (missing.length) {
      const rows = await invitesByIds(
        db,
        missing.map((i) => keys[i]!.id),
      );
      const byId = new Map(rows.map((r) => [r.id, this.keep(r)]));
      for (const i of missing) parts[i] = byId.get(keys[i]!.id);
    }
    const version = createHash('sha1');
    const json: string[] = [];
    parts.forEach((p, i) => {
      if (!p) return;
      version.update(`${keys[i]!.id}:${p.xid},`);
      json.push(p.json);
    });
    return { json: `[${json.join(',')}]`, version: version.digest('base64url') };
  }

  private keep(row: OfflineInviteRow): { xid: string; json: string } {
    const kept = { xid: row.changed_xid, json: JSON.stringify(inviteeOf(row)) };
    this.rendered.delete(row.id);
    this.rendered.set(row.id, kept);
    if (this.rendered.size > this.max) this.rendered.delete(this.rendered.keys().next().value!);
    return kept;
  }
}
