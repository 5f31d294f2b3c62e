import type { Migration } from '@fieldhouse/db';
import { messaging } from './001-messaging.ts';

/** The collection service's migrations, in order. */
export const migrations: Migration[] = [messaging];
