import type { Answer } from '../../pages/collect/answers.ts';
import type { FormNode, FormSession, SessionChange } from './logic-types.ts';

/** The field types a native text-like input answers (FieldInput's TextField). */
const TYPED_IN_PLACE = new Set(['text', 'integer', 'decimal', 'date', 'time', 'datetime']);

/**
 * Whether the node's input keeps what is typed in it itself (LogicFields renders it uncontrolled):
 * a keystroke then re-renders the node only when its state or its message changes.
 */
export const typesInPlace = (node: FormNode): boolean => TYPED_IN_PLACE.has(node.type);

/**
 * What {@link LogicFields} renders from: a form-logic session plus what was typed and the
 * messages, by session path, with a revision per path so that a change re-renders only the
 * nodes it touched (the session says which: `SessionChange`), not the whole form: on a 300-field
 * form a whole re-render is far over a frame's 16 ms on a throttled phone.
 */
export class LogicStore {
  private readonly revisions = new Map<string, number>();
  private readonly listeners = new Map<string, Set<() => void>>();
  /** Who shows a calculation's value in place (LogicFields' outputs), by path. */
  private readonly watchers = new Map<string, Set<() => void>>();
  /** Bumped when the structure changes (instances added or removed): every node re-renders. */
  private generation = 0;

  constructor(
    readonly session: FormSession,
    /** What was typed, by path; absent: the session's value (a default, a restored answer) shows. */
    public drafts: Record<string, Answer> = {},
    /** Messages by path (a required answer missing, a value its type refuses, the service's). */
    public errors: Record<string, string> = {},
  ) {}

  /** Records what was typed at `path` (in place: a keystroke does not copy every draft). */
  setDraft(path: string, value: Answer): void {
    this.drafts[path] = value;
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

  /**
   * An answer typed or chosen at `path` (`draft` as the input holds it, `value` as the engine
   * types it): records it, drops the field's message, sets the session's value, then re-renders
   * what the session says changed, and the node itself unless its input keeps what was typed
   * ({@link typesInPlace}) and it had no message. `resync` brings counted repeats to their count
   * (logic-kit's syncRepeatCounts); when it changed any, everything re-renders. Returns whether a
   * message was dropped (the caller's copy of the messages is then stale).
   */
  answer(path: string, node: FormNode, draft: Answer, value: unknown, resync: () => boolean): boolean {
    this.setDraft(path, draft);
    const messageGone = this.removeError(path);
    const change = this.session.set(path, value);
    if (resync()) this.changedAll();
    else this.changed(change, ...(messageGone || !typesInPlace(node) ? [path] : []));
    return messageGone;
  }

  /**
   * Calls `show` whenever the calculation at `path` changes value (without re-rendering its node:
   * a calculation feeding 20 others changes 20 outputs on a keystroke). Returns the unsubscribe.
   */
  watchValue(path: string, show: () => void): () => void {
    let set = this.watchers.get(path);
    if (!set) this.watchers.set(path, (set = new Set()));
    set.add(show);
    return () => void set.delete(show);
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

  /**
   * Marks paths changed: the nodes of `paths` and of the change's `nodes` re-render; the
   * calculations of its `values` update their outputs in place ({@link watchValue}).
   */
  changed(change: SessionChange | null, ...paths: string[]): void {
    for (const path of new Set([...paths, ...(change?.nodes ?? [])])) {
      this.revisions.set(path, (this.revisions.get(path) ?? 0) + 1);
      for (const listener of this.listeners.get(path) ?? []) listener();
    }
    for (const path of change?.values ?? []) for (const show of this.watchers.get(path) ?? []) show();
  }

  /** Everything re-renders and every output shows its value again (instances added or removed, messages replaced). */
  changedAll(): void {
    this.generation++;
    for (const set of this.listeners.values()) for (const listener of set) listener();
    for (const set of this.watchers.values()) for (const show of set) show();
  }
}
