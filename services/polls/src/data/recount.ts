import type { Collections } from './collections.ts';
import type { CounterFields } from '../domain/counters.ts';

/**
 * The exact counters of a poll computed from MongoDB (the source of truth), in the field names
 * of domain/counters.ts. Uses only `$match`, `$unwind`, `$group` and `$sum`, which FerretDB 1.24
 * supports.
 */
export function recountFrom(c: Collections) {
  return async (pollId: string): Promise<CounterFields> => {
    const group = async (coll: 'votes' | 'reactions', field: string, unwind = false) => {
      const stages: object[] = [{ $match: { poll_id: pollId } }];
      if (unwind) stages.push({ $unwind: `$${field}` });
      stages.push({ $group: { _id: `$${field}`, n: { $sum: 1 } } });
      return (await c[coll].aggregate<{ _id: unknown; n: number }>(stages).toArray()).filter(
        (r) => r._id !== null && r._id !== undefined,
      );
    };
    const [total, voters, comments, options, hours, times, reactions] = await Promise.all([
      c.votes.countDocuments({ poll_id: pollId }),
      c.votes.countDocuments({ poll_id: pollId, seq: 1 }),
      c.comments.countDocuments({ poll_id: pollId }),
      group('votes', 'option_ids', true),
      group('votes', 'hour'),
      group('votes', 'time_spent'),
      group('reactions', 'reaction_type'),
    ]);
    const fields: CounterFields = { total, voters, comments };
    for (const r of options) fields[`o:${String(r._id)}`] = r.n;
    for (const r of hours) fields[`h:${String(r._id)}`] = r.n;
    for (const r of times) fields[`t:${String(r._id)}`] = r.n;
    for (const r of reactions) if (r.n > 0) fields[`r:${String(r._id)}`] = r.n;
    return fields;
  };
}
