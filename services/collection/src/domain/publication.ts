import Joi from 'joi';
import type { ProblemError } from '@fieldhouse/problem';
import { problems } from './problems.ts';
import { COLLECT_ACCESS, DEFAULT_SETTINGS, type PublicationSettings } from './types.ts';
export { COLLECT_ACCESS, type PublicationSettings } from './types.ts';

const utc = Joi.string()
  .isoDate()
  .pattern(/(Z|[+-]00:?00)$/, 'UTC (ending in Z)')
  .allow(null);

/** Body of the publish endpoints: every key optional; absent keys keep their current value. */
export const settingsSchema = Joi.object<Partial<PublicationSettings>>({
  collect_access: Joi.string().valid(...COLLECT_ACCESS),
  submission_limit: Joi.number().integer().min(1).max(100_000_000).allow(null),
  collect_starts_at: utc,
  collect_expires_at: utc,
  allow_multiple_submissions: Joi.boolean(),
  allow_edits: Joi.boolean(),
  require_consent: Joi.boolean(),
  consent_text: Joi.string().trim().min(1).max(10_000).allow(null),
  notify_on_submission: Joi.boolean(),
  notification_emails: Joi.array()
    .items(Joi.string().email({ tlds: false }).max(254))
    .max(50)
    .unique(),
});

/**
 * Merges a publish body into the current settings and checks the combination: the window must
 * end after it starts, consent needs a text, notifications need at least one address.
 * @returns the merged settings, or field errors.
 */
export function mergeSettings(
  current: PublicationSettings,
  patch: Partial<PublicationSettings>,
): { settings: PublicationSettings; errors: Record<string, string[]> } {
  const s: PublicationSettings = { ...DEFAULT_SETTINGS, ...current, ...patch };
  if (s.collect_starts_at) s.collect_starts_at = new Date(s.collect_starts_at).toISOString();
  if (s.collect_expires_at) s.collect_expires_at = new Date(s.collect_expires_at).toISOString();
  const errors: Record<string, string[]> = {};
  if (s.collect_starts_at && s.collect_expires_at && s.collect_expires_at <= s.collect_starts_at)
    errors.collect_expires_at = ['collect_expires_at must be after collect_starts_at'];
  if (s.require_consent && !s.consent_text)
    errors.consent_text = ['consent_text is required when require_consent is true'];
  if (s.notify_on_submission && !s.notification_emails.length)
    errors.notification_emails = ['notification_emails needs an address when notify_on_submission is true'];
  return { settings: s, errors };
}

/**
 * Why the collection window refuses a submission at `now` (422 `collection_not_started` or
 * `collection_ended`), or null when it is open.
 */
export function windowProblem(s: PublicationSettings, now: Date): ProblemError | null {
  if (s.collect_starts_at && now < new Date(s.collect_starts_at))
    return problems.collectionNotStarted({ startsAt: s.collect_starts_at });
  if (s.collect_expires_at && now >= new Date(s.collect_expires_at))
    return problems.collectionEnded({ expiresAt: s.collect_expires_at });
  return null;
}
