import type { Db } from 'mongodb';

/** The marker of this one-time change in the `migrations` collection. */
export const PARTICIPANT_NAMES_MIGRATION = '2026-11-29-participant-names-private';

/**
 * One-time data change (docs/polls.md, "Participants shown to voters"): every poll stored before
 * participants could be shown to others gets `show_participant_names: false`.
 *
 * Those polls hold `true`, the old default, which then had no effect: their voters were promised
 * "Shown with your vote to the poll's owner", and showing their names to other voters now would
 * break that promise. An owner turns the setting on again in the poll's settings; the marker
 * document keeps this change from running twice and undoing that choice. Idempotent and safe to
 * run from two processes at once (the marker's insert is the last step; a second run before it
 * only sets false again what was false).
 * @returns how many polls it changed (0 once the marker is there).
 */
export async function hideStoredParticipantNames(db: Db): Promise<number> {
  const migrations = db.collection<{ _id: string; applied_at: string }>('migrations');
  if (await migrations.findOne({ _id: PARTICIPANT_NAMES_MIGRATION })) return 0;
  const changed = await db
    .collection('polls')
    .updateMany(
      { 'settings.show_participant_names': { $ne: false } },
      { $set: { 'settings.show_participant_names': false } },
    );
  await migrations.updateOne(
    { _id: PARTICIPANT_NAMES_MIGRATION },
    { $setOnInsert: { applied_at: new Date().toISOString() } },
    { upsert: true },
  );
  return changed.modifiedCount;
}
