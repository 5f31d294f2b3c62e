import type { ReactionType } from '../poll-public/types.ts';

const KEY = 'fieldhouse.reactions';

/**
 * This browser's reaction per poll (localStorage `fieldhouse.reactions`: poll id → type). The
 * API keeps one reaction per voter but does not say which in the results, so the page
 * remembers the one it last sent, to show it pressed.
 */
export const myReactions = {
  get(pollId: string): ReactionType | null {
    try {
      return (JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, ReactionType>)[pollId] ?? null;
    } catch {
      return null;
    }
  },
  set(pollId: string, type: ReactionType): void {
    try {
      const all = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, ReactionType>;
      localStorage.setItem(KEY, JSON.stringify({ ...all, [pollId]: type }));
    } catch {
      /* no storage: the pressed state lasts as long as the page */
    }
  },
};
