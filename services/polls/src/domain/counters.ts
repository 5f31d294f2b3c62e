import type { CounterFields, VoteDoc } from './types.ts';

// The counters' types live in types.ts (data/counters.ts, their Redis side, shares them).
export type { CounterFields, CounterSnapshot, Reservation } from './types.ts';

/** The counter changes one counted vote makes (docs/polls.md, "Counters"). */
export function voteDeltas(vote: Pick<VoteDoc, 'seq' | 'hour' | 'option_ids' | 'time_spent'>): CounterFields {
  const deltas: CounterFields = { total: 1, voters: vote.seq === 1 ? 1 : 0, [`h:${vote.hour}`]: 1 };
  for (const id of vote.option_ids) deltas[`o:${id}`] = 1;
  if (vote.time_spent !== null) deltas[`t:${vote.time_spent}`] = 1;
  return deltas;
}
