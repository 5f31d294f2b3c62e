import { createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from 'node:crypto';
import { normalizeCode } from './codes.ts';

/**
 * Signed invitation codes (docs/events.md, "Signed codes"), in the manner of pretix's
 * `pretix_sig1` (an Ed25519 signature over the ticket's data, so a scanner holding only the
 * event's public key tells a real code from a forged one without the guest list):
 *
 *     FH1 + base32( invite_id (16 bytes) | signature (64 bytes) | code_unique (ASCII) )
 *
 * The signature is Ed25519 (RFC 8032) over `"fieldhouse-code-v1" | 0x00 | event_id (16 bytes) |
 * invite_id (16 bytes) | code_unique (ASCII)`: binding the event and the invite, so a code signed
 * for one event never verifies for another. Base32 (RFC 4648, `A`-`Z`, `2`-`7`, no padding) keeps
 * the token upper case (scanned codes are read case-insensitively) and in the QR alphanumeric mode.
 * The prefix `FH1` cannot start a random code (whose alphabet has no `1`).
 *
 * Each event's key pair is derived, never stored: its 32-byte Ed25519 seed is
 * HKDF-SHA-256(`EVENTS_CODE_SIGNING_SECRET`, salt `fieldhouse events code signing`, info the
 * event id) (RFC 5869). The private key exists only in the service's memory.
 */
const SIGNED_PREFIX = 'FH1';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const DOMAIN = Buffer.from('fieldhouse-code-v1\0', 'ascii');
const SALT = Buffer.from('fieldhouse events code signing', 'ascii');
/** PKCS #8 DER prefix of an Ed25519 private key (RFC 8410), followed by the 32-byte seed. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');
const INVITE_ID_BYTES = 16;
const SIGNATURE_BYTES = 64;

/** RFC 4648 base32 without padding. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 without padding, or undefined when a symbol is not of the alphabet. */
function unbase32(text: string): Buffer | undefined {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return undefined;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (b: Buffer) => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const message = (eventId: string, inviteId: Buffer, code: string) =>
  Buffer.concat([DOMAIN, uuidBytes(eventId.toLowerCase()), inviteId, Buffer.from(code, 'ascii')]);

/** Whether a normalised scanned code is a signed one (by its prefix). */
const isSignedCode = (code: string): boolean => code.startsWith(SIGNED_PREFIX);

/** An event's key pair. */
interface EventKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The raw 32-byte public key, base64url (what scanners hold). */
  publicKeyRaw: string;
}

/** Signs and verifies the codes of every event with keys derived from one secret (cached per event). */
export interface CodeSigner {
  /** The event's Ed25519 public key, raw 32 bytes in base64url. */
  publicKey(eventId: string): string;
  /** The signed form of an invite's `code_unique`. */
  sign(eventId: string, inviteId: string, code: string): string;
  /**
   * The invite id and `code_unique` a signed code carries when its signature is the event's,
   * else undefined (forged, altered, another event's, or not a signed code).
   */
  verify(eventId: string, signed: string): { inviteId: string; code: string } | undefined;
}

/** How many events' keys are kept derived in memory. */
const KEY_CACHE = 1000;

/**
 * A {@link CodeSigner} over `secret` (`EVENTS_CODE_SIGNING_SECRET`, at least 32 bytes of entropy).
 * Changing the secret changes every event's keys: every signed code issued before stops verifying.
 */
export function createCodeSigner(secret: string): CodeSigner {
  const ikm = Buffer.from(secret, 'utf8');
  const cache = new Map<string, EventKeys>();
  const keysOf = (eventId: string): EventKeys => {
    const id = eventId.toLowerCase();
    let keys = cache.get(id);
    if (!keys) {
      const seed = Buffer.from(hkdfSync('sha256', ikm, SALT, Buffer.from(id, 'ascii'), 32));
      const privateKey = createPrivateKey({
        key: Buffer.concat([PKCS8_ED25519, seed]),
        format: 'der',
        type: 'pkcs8',
      });
      const publicKey = createPublicKey(privateKey);
      const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
      keys = { privateKey, publicKey, publicKeyRaw: raw.toString('base64url') };
      if (cache.size >= KEY_CACHE) cache.delete(cache.keys().next().value!);
      cache.set(id, keys);
    }
    return keys;
  };
  return {
    publicKey: (eventId) => keysOf(eventId).publicKeyRaw,
    sign(eventId, inviteId, code) {
      const id = uuidBytes(inviteId);
      const signature = sign(null, message(eventId, id, code), keysOf(eventId).privateKey);
      return SIGNED_PREFIX + base32(Buffer.concat([id, signature, Buffer.from(code, 'ascii')]));
    },
    verify(eventId, signed) {
      if (!isSignedCode(signed) || !/^[0-9a-f-]{36}$/i.test(eventId)) return undefined;
      const bytes = unbase32(signed.slice(SIGNED_PREFIX.length));
      if (!bytes || bytes.length <= INVITE_ID_BYTES + SIGNATURE_BYTES) return undefined;
      const id = bytes.subarray(0, INVITE_ID_BYTES);
      const signature = bytes.subarray(INVITE_ID_BYTES, INVITE_ID_BYTES + SIGNATURE_BYTES);
      const code = bytes.subarray(INVITE_ID_BYTES + SIGNATURE_BYTES).toString('ascii');
      if (!/^[0-9A-Z]+$/.test(code)) return undefined;
      const ok = verify(null, message(eventId, id, code), keysOf(eventId).publicKey, signature);
      return ok ? { inviteId: uuidOf(id), code } : undefined;
    },
  };
}

/**
 * The code a scan names, in canonical form ({@link normalizeCode}): for a signed code whose
 * signature is the event's, the `code_unique` it carries; a signed code that does not verify
 * (forged, altered, another event's, or signed codes off) stays as read, which no invite has, so
 * it answers `unknown_code`. Undefined when it cannot be a code.
 */
export function scannedCode(signer: CodeSigner | null, eventId: string, raw: unknown): string | undefined {
  const code = normalizeCode(raw);
  if (!code || !isSignedCode(code)) return code;
  return signer?.verify(eventId, code)?.code ?? code;
}
