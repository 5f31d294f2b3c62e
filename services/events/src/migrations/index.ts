import type { Migration } from '@fieldhouse/db';
import { messaging } from './001-messaging.ts';

/** The events service's migrations, in order. */
export const migrations: Migration[] = [messaging];
