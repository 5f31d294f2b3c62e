import { randomBytes, randomUUID } from 'node:crypto';

/** A new poll or comment id (UUID v4 string). */
export const newId = (): string => randomUUID();

/** A short id for sections (`s_...`) and options (`o_...`), unique within a poll. */
export const shortId = (kind: 's' | 'o'): string => `${kind}_${randomBytes(6).toString('base64url')}`;

/** The UTC hour of a time as an ISO string (`2025-01-31T14:00:00Z`). */
export const hourOf = (d: Date): string => `${d.toISOString().slice(0, 13)}:00:00Z`;
