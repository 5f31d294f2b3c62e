import { usersProjection } from '@fieldhouse/users-projection';

/**
 * Collection's users projection: the `users` table, user events recorded in `processed_messages`
 * as `collection.users`, with the rules of `@fieldhouse/users-projection` (newest `updated_at`
 * wins; ties, duplicates and replays change nothing; e-mail stored lower-cased). Shared by the
 * repository (`data/users.ts`), the caller-sync middleware (`http/caller-sync.ts`) and the user
 * events worker, so none of them imports another layer.
 */
export const users = usersProjection({
  usersTable: 'users',
  processedMessagesTable: 'processed_messages',
  consumer: 'collection.users',
});
