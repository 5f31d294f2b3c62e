import type { Migration } from '@fieldhouse/db';
import { identity } from './001-identity.ts';

/** The gateway's migrations, in order. */
export const migrations: Migration[] = [identity];
