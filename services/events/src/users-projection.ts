import { usersProjection } from '@fieldhouse/users-projection';

/**
 * Events' users projection: the `users` table, user events recorded in `processed_messages` as
 * `events.users`, with the rules of `@fieldhouse/users-projection` (newest `updated_at` wins;
 * ties, duplicates and replays change nothing; e-mail stored lower-cased). Shared by the
 * repository (`data/users.ts`) and the caller-sync middleware (`http/caller-sync.ts`), so
 * neither imports the other's layer.
 */
export const users = usersProjection({
  usersTable: 'users',
  processedMessagesTable: 'processed_messages',
  consumer: 'events.users',
});
