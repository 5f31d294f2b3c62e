import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { dirname } from 'node:path';

/**
 * Makes sure the local stack has the gateway's signing key (EC P-256, PKCS#8 PEM, mode 0600)
 * at `path`, generating it on first start. The folder is git-ignored.
 */
export function ensureSigningKey(path: string): { path: string; created: boolean } {
  if (existsSync(path)) return { path, created: false };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  return { path, created: true };
}
