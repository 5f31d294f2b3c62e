import ical from 'ical-generator';
import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import { problems } from './problems.ts';
import { kindOf } from './section-kinds.ts';
import type { Actor, PollDoc, SectionDoc } from './types.ts';

/** A meeting slot without `ends_at` lasts one hour (docs/polls.md, "Meeting sections"). */
const DEFAULT_SLOT_MS = 60 * 60 * 1000;

/** The meeting section `sectionId` of a poll. @throws ProblemError 404 unknown section; 422 not a meeting. */
function meetingSection(poll: PollDoc, sectionId: string): SectionDoc {
  const section = poll.sections.find((s) => s.id === sectionId);
  if (!section) throw problems.notFound({ what: 'section' });
  if (kindOf(section) !== 'meeting')
    throw problems.invalid({
      errors: { section_id: [`Section "${section.title}" is not a meeting section.`] },
    });
  return section;
}

/** Command of {@link chooseFinalSlot}: the meeting section, who asks, and the slot (null: undo). */
export interface ChooseFinalSlot {
  pollId: string;
  sectionId: string;
  actor: Actor;
  optionId: string | null;
}

/**
 * `POST /api/polls/{poll_id}/sections/{section_id}/final-slot` `{option_id}` (owner): records the
 * slot the owner picked for a meeting section (any of its slots, whatever its rank; null takes
 * the choice back). The results show it as `final_option_id`, open live results at once.
 * @throws ProblemError 404 unknown poll or section; 403 not the owner; 422 not a meeting section,
 *   or an option of another section.
 */
export async function chooseFinalSlot(
  ctx: PollsContext,
  { pollId, sectionId, actor, optionId }: ChooseFinalSlot,
): Promise<PollDoc> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.manage', pollId });
  const section = meetingSection(poll, sectionId);
  if (optionId !== null && !section.options.some((o) => o.id === optionId))
    throw problems.invalid({
      errors: { option_id: [`Option ${optionId} is not a slot of section "${section.title}".`] },
    });
  const next: PollDoc = {
    ...poll,
    sections: poll.sections.map((s) => (s.id === sectionId ? { ...s, final_option_id: optionId } : s)),
    updated_at: new Date().toISOString(),
  };
  await ctx.inTransaction(async () => ctx.polls.save(next));
  await ctx.live.publish(poll._id);
  return next;
}

/** Command of {@link meetingCalendar}: the meeting section and who reads it. */
export interface MeetingCalendar {
  pollId: string;
  sectionId: string;
  actor: Actor;
}

/**
 * `GET /api/polls/{poll_id}/sections/{section_id}/calendar.ics` (anyone who may read the poll):
 * the final slot of a meeting section as an iCalendar file (RFC 5545: one `VEVENT` with `UID`
 * `<poll id>.<section id>@fieldhouse`, `DTSTART`/`DTEND` in UTC, `SUMMARY` the poll's title and
 * the section's, `DESCRIPTION` the slot's label), written by ical-generator.
 * Returns the file's text and a file name.
 * @throws ProblemError 404 unknown poll or section, or no final slot picked yet; 422 not a
 *   meeting section.
 */
export async function meetingCalendar(
  ctx: PollsContext,
  { pollId, sectionId, actor }: MeetingCalendar,
): Promise<{ ics: string; filename: string }> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  const section = meetingSection(poll, sectionId);
  const slot = section.options.find((o) => o.id === section.final_option_id);
  if (!slot?.starts_at) throw problems.notFound({ what: 'finalSlot' });
  const start = new Date(slot.starts_at);
  const end = slot.ends_at ? new Date(slot.ends_at) : new Date(start.getTime() + DEFAULT_SLOT_MS);
  const calendar = ical({
    prodId: { company: 'Fieldhouse', product: 'Polls', language: 'EN' },
    name: poll.title,
  });
  calendar.createEvent({
    id: `${poll._id}.${section.id}@fieldhouse`,
    start,
    end,
    stamp: new Date(poll.updated_at),
    summary: section.title === poll.title ? poll.title : `${poll.title}: ${section.title}`,
    description: slot.label,
  });
  return { ics: calendar.toString(), filename: `meeting-${poll._id}.ics` };
}
