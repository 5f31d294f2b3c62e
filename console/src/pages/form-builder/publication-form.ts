import { fromLocalInput, toLocalInput } from '../../components/local-instant.ts';
import type { Project } from '../collection/types.ts';
import type { PublicationInput } from './use-form-builder.ts';

/** The publication dialog's values (spec 2.1's publication settings, as the inputs hold them). */
export interface PublicationValues {
  collect_access: 'members' | 'authenticated' | 'public';
  allow_multiple_submissions: boolean;
  allow_edits: boolean;
  submission_limit: string;
  collect_starts_at: string;
  collect_expires_at: string;
  require_consent: boolean;
  consent_text: string;
  notify_on_submission: boolean;
  notification_emails: string;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+$/;
const emailsOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((e) => e.trim())
    .filter(Boolean);

/** The dialog's values from a project's current settings. */
export function publicationValues(project: Project): PublicationValues {
  const s = project.settings;
  return {
    collect_access: s.collect_access,
    allow_multiple_submissions: s.allow_multiple_submissions,
    allow_edits: s.allow_edits,
    submission_limit: s.submission_limit === null ? '' : String(s.submission_limit),
    collect_starts_at: toLocalInput(s.collect_starts_at),
    collect_expires_at: toLocalInput(s.collect_expires_at),
    require_consent: s.require_consent,
    consent_text: s.consent_text ?? '',
    notify_on_submission: s.notify_on_submission,
    notification_emails: s.notification_emails.join(', '),
  };
}

/**
 * The service's publication rules (docs/collection.md, "Publication"), checked first: a
 * submission limit that is a whole number from 1, an end after the start, a consent text when
 * consent is required, at least one valid address when notifying.
 */
export function publicationErrors(v: PublicationValues, t: (key: string) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (
    v.submission_limit !== '' &&
    !(Number.isInteger(Number(v.submission_limit)) && Number(v.submission_limit) >= 1)
  )
    errors.submission_limit = t('publish.errors.limit');
  const start = fromLocalInput(v.collect_starts_at);
  const end = fromLocalInput(v.collect_expires_at);
  if (start && end && end <= start) errors.collect_expires_at = t('publish.errors.endBeforeStart');
  if (v.require_consent && !v.consent_text.trim()) errors.consent_text = t('publish.errors.consentText');
  const emails = emailsOf(v.notification_emails);
  if (emails.some((e) => !EMAIL.test(e))) errors.notification_emails = t('publish.errors.email');
  else if (v.notify_on_submission && emails.length === 0)
    errors.notification_emails = t('publish.errors.noEmail');
  return errors;
}

/** The publish body: every setting, times as UTC instants, empty boxes as "none". */
export const publicationInputOf = (v: PublicationValues): PublicationInput => ({
  collect_access: v.collect_access,
  allow_multiple_submissions: v.allow_multiple_submissions,
  allow_edits: v.allow_edits,
  submission_limit: v.submission_limit === '' ? null : Number(v.submission_limit),
  collect_starts_at: fromLocalInput(v.collect_starts_at),
  collect_expires_at: fromLocalInput(v.collect_expires_at),
  require_consent: v.require_consent,
  consent_text: v.consent_text.trim() || null,
  notify_on_submission: v.notify_on_submission,
  notification_emails: emailsOf(v.notification_emails),
});
