import type { Migration } from '@fieldhouse/db';
import { identity } from './001-identity.ts';
import { deviceCredentials } from './002-device-credentials.ts';
import { accounts } from './003-accounts.ts';

/** The gateway's migrations, in order. */
export const migrations: Migration[] = [identity, deviceCredentials, accounts];
