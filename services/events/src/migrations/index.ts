import type { Migration } from '@fieldhouse/db';
import { messaging } from './001-messaging.ts';
import { eventsSchema } from './002-events.ts';
import { scannerDevices } from './003-scanner-devices.ts';
import { webhooks } from './004-webhooks.ts';
import { inviteCounts } from './005-invite-counts.ts';
import { userPreferences } from './006-user-preferences.ts';
import { generatedWebhookTriggers } from './007-generated-webhook-triggers.ts';
import { checkinOutcomes } from './008-checkin-outcomes.ts';
import { gatesParties } from './009-gates-parties.ts';
import { offlineLists } from './010-offline-lists.ts';
import { webhookTriggersStep } from './webhook-triggers.ts';

/** The events service's migrations, in order; last, the repeatable step that installs the generated webhook triggers. */
export const migrations: Migration[] = [
  messaging,
  eventsSchema,
  scannerDevices,
  webhooks,
  inviteCounts,
  userPreferences,
  generatedWebhookTriggers,
  checkinOutcomes,
  gatesParties,
  offlineLists,
  webhookTriggersStep,
];
