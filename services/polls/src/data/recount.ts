import type { Collections } from './collections.ts';
import type { CounterFields } from '../domain/types.ts';

const bump = (fields: CounterFields, key: string) => {
  fields[key] = (fields[key] ?? 0) + 1;
};

/**
 * The exact counters of a poll computed from MongoDB (the source of truth), in the field names
 * of domain/types.ts (`CounterFields`). One pass over the poll's votes (only the counted fields are read) and
 * one over its reactions, plus a count of its comments: on FerretDB 1.24 a pass costs about as
 * much as each of the seven `$group` aggregations it replaces (29,000 votes: 3.2 s instead of
 * 8.4 s here), and on MongoDB it is a plain indexed scan.
 */
export function recountFrom(c: Collections) {
  return async (pollId: string): Promise<CounterFields> => {
    const votes = async () => {
      const fields: CounterFields = { total: 0, voters: 0 };
      const cursor = c.votes.find(
        { poll_id: pollId },
        {
          projection: { _id: 0, seq: 1, option_ids: 1, tallies: 1, hour: 1, time_spent: 1 },
          batchSize: 5_000,
        },
      );
      for await (const v of cursor) {
        fields.total! += 1;
        if (v.seq === 1) fields.voters! += 1;
        for (const id of v.option_ids ?? []) bump(fields, `o:${id}`);
        for (const field of v.tallies ?? []) bump(fields, field);
        if (v.hour != null) bump(fields, `h:${v.hour}`);
        if (v.time_spent != null) bump(fields, `t:${v.time_spent}`);
      }
      return fields;
    };
    const reactions = async () => {
      const fields: CounterFields = {};
      const cursor = c.reactions.find({ poll_id: pollId }, { projection: { _id: 0, reaction_type: 1 } });
      for await (const r of cursor) if (r.reaction_type) bump(fields, `r:${r.reaction_type}`);
      return fields;
    };
    const [v, r, comments] = await Promise.all([
      votes(),
      reactions(),
      c.comments.countDocuments({ poll_id: pollId, hidden: { $ne: true } }),
    ]);
    return { ...v, ...r, comments };
  };
}
