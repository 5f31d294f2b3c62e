import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase } from '@fieldhouse/db';
import { backingUrl } from './backing.ts';

export interface TestDatabase {
  /** URL of a fresh, empty database. */
  url: string;
  drop: () => Promise<void>;
}

/** Creates a fresh database `t_<label>_<random>` on the test PostgreSQL server. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const server = new URL(await backingUrl('postgres'));
  server.pathname = `/t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const url = server.toString();
  await ensureDatabase(url);
  return { url, drop: () => dropDatabase(url) };
}
