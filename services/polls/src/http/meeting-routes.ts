import { chooseFinalSlot, meetingCalendar } from '../domain/meeting.ts';
import { pollView } from '../domain/views.ts';
import { FinalSlotInput, PollAnswer, sectionParams } from './polls-schemas.ts';
import { route, signedIn } from './declare.ts';

const TAGS = ['Polls'];

/** Meeting sections (docs/polls.md, "Meeting sections"): the final slot and its calendar file. */
export const meetingRoutes = [
  route({
    method: 'post',
    path: '/api/polls/{poll_id}/sections/{section_id}/final-slot',
    operationId: 'chooseFinalSlot',
    summary: 'Pick the final slot of a meeting section (owner)',
    description:
      '`{option_id}`: any slot of the section (null takes the choice back). The results show it as the section’s ' +
      '`final_option_id`; its calendar file is then at `calendar.ics`.',
    tags: TAGS,
    middleware: signedIn,
    params: sectionParams,
    notFound: 'No poll or section has this id.',
    body: FinalSlotInput,
    responses: { 200: { description: 'The poll', body: PollAnswer } },
    problems: {
      403: 'Not the owner',
      404: 'Unknown poll or section',
      422: 'Not a meeting section, or `option_id` is not one of its slots',
    },
    handler: async ({ params, body }, ctx, req) => {
      const poll = await chooseFinalSlot(ctx, {
        pollId: params.poll_id,
        sectionId: params.section_id,
        actor: req.caller,
        optionId: body.option_id,
      });
      return { body: { data: pollView(poll), message: 'Final slot saved.' } };
    },
  }),
  route({
    method: 'get',
    path: '/api/polls/{poll_id}/sections/{section_id}/calendar.ics',
    operationId: 'meetingCalendar',
    summary: 'The final slot of a meeting section as an iCalendar file (anyone)',
    description:
      'RFC 5545 `text/calendar`: one event at the slot the owner picked (UTC times; a slot without an end lasts ' +
      'one hour), as a download (`Content-Disposition: attachment`).',
    tags: TAGS,
    access: 'optional',
    params: sectionParams,
    notFound: 'No poll or section has this id.',
    responses: { 200: { description: 'The calendar file', content: { 'text/calendar': null } } },
    problems: {
      404: 'Unknown poll or section, or no final slot picked yet',
      422: 'Not a meeting section',
    },
    handler: async ({ params }, ctx, req, res) => {
      const { ics, filename } = await meetingCalendar(ctx, {
        pollId: params.poll_id,
        sectionId: params.section_id,
        actor: req.caller,
      });
      res
        .type('text/calendar; charset=utf-8')
        .set('Content-Disposition', `attachment; filename="${filename}"`)
        .send(ics);
    },
  }),
];
