import type { Migration } from '@fieldhouse/db';
import { messaging } from './001-messaging.ts';
import { collection } from './002-collection.ts';
import { sync } from './003-sync.ts';
import { exportsTable } from './004-exports.ts';
import { analyses } from './005-analyses.ts';
import { exportOptions } from './006-export-options.ts';
import { searchPrefixes } from './007-search-prefixes.ts';
import { countStatements } from './008-count-statements.ts';
import { searchVectorLoop } from './009-search-vector-loop.ts';
import { exportLease } from './010-export-lease.ts';
import { exportsByProject } from './011-exports-by-project.ts';
import { webhooks } from './012-webhooks.ts';
import { memberInvitations } from './013-member-invitations.ts';
import { submissionVersions } from './014-submission-versions.ts';
import { userPreferences } from './015-user-preferences.ts';
import { generatedWebhookTriggers } from './016-generated-webhook-triggers.ts';
import { formLogic } from './017-form-logic.ts';
import { appUsers } from './018-app-users.ts';
import { webhookTriggersStep } from './webhook-triggers.ts';

/** The collection service's migrations, in order; last, the repeatable step that installs the generated webhook triggers. */
export const migrations: Migration[] = [
  messaging,
  collection,
  sync,
  exportsTable,
  analyses,
  exportOptions,
  searchPrefixes,
  countStatements,
  searchVectorLoop,
  exportLease,
  exportsByProject,
  webhooks,
  memberInvitations,
  submissionVersions,
  userPreferences,
  generatedWebhookTriggers,
  formLogic,
  appUsers,
  webhookTriggersStep,
];
