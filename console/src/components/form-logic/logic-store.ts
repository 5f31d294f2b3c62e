import type { Answer } from '../../pages/collect/answers.ts';
import type { FormSession, SessionChange } from './logic-types.ts';

/**
 * What {@link LogicFields} renders from: a form-logic session plus what was typed and the
 * messages, by session path, with a revision per path so that a change re-renders only the
 * nodes it touched (the session says which: `SessionChange`), not the whole form: on a 300-field
 * form a whole re-render is far over a frame's 16 ms on a throttled phone.
 */
export class LogicStore {
  private readonly revisions = new Map<string, number>();
  private readonly listeners = new Map<string, Set<() => void>>();
  /** Bumped when the structure changes (instances added or removed): every node re-renders. */
  private generation = 0;

  constructor(
    readonly session: FormSession,
    /** What was typed, by path; absent: the session's value (a default, a restored answer) shows. */
    public drafts: Record<string, Answer> = {},
    /** Messages by path (a required answer missing, a value its type refuses, the service's). */
    public errors: Record<string, string> = {},
  ) {}

  /** Records what was typed at `path`. */
  setDraft(path: string, value: Answer): void {
    this.drafts = { ...this.drafts, [path]: value };
  }

  /** Replaces the messages (the nodes re-render with changedAll()). */
  setErrors(errors: Record<string, string>): void {
    this.errors = errors;
  }

  /** Removes the message at `path`; whether there was one. */
  removeError(path: string): boolean {
    if (!(path in this.errors)) return false;
    const { [path]: _gone, ...rest } = this.errors;
    this.errors = rest;
    return true;
  }

  /** Re-keys drafts and messages (after a repeat instance is removed). */
  rekey(move: <T>(byPath: Record<string, T>) => Record<string, T>): void {
    this.drafts = move(this.drafts);
    this.errors = move(this.errors);
  }

  /** Subscribes a node to the changes of its path (useSyncExternalStore's `subscribe`). */
  subscribe(path: string, listener: () => void): () => void {
    let set = this.listeners.get(path);
    if (!set) this.listeners.set(path, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  /** The snapshot of a path: changes whenever it must re-render. */
  revision(path: string): string {
    return `${this.generation}.${this.revisions.get(path) ?? 0}`;
  }

  /** Marks paths changed (the session's change and the path set) and notifies their nodes. */
  changed(change: SessionChange | null, ...paths: string[]): void {
    const all = new Set([...paths, ...(change?.values ?? []), ...(change?.nodes ?? [])]);
    for (const path of all) {
      this.revisions.set(path, (this.revisions.get(path) ?? 0) + 1);
      for (const listener of this.listeners.get(path) ?? []) listener();
    }
  }

  /** Everything re-renders (repeat instances added or removed, messages replaced). */
  changedAll(): void {
    this.generation++;
    for (const set of this.listeners.values()) for (const listener of set) listener();
  }
}
