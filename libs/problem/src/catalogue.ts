import { ProblemError, type FieldErrors } from './problem.ts';
import { statusOfKind, type ProblemKind } from './kinds.ts';

/**
 * One problem type of a service's catalogue (its `domain/problems.ts`): what kind of refusal it
 * is, its stable `code`, and how its English `detail` (and, for `invalid`, its field `errors`)
 * are made from the typed parameters `P`. The kind, not an HTTP status, is all the domain says:
 * the HTTP edge maps it ({@link statusOfKind}).
 */
export interface ProblemSpec<P> {
  kind: ProblemKind;
  /** Stable machine-readable code (`snake_case`), the one place it is written. */
  code: string;
  /** The English sentence of `detail` (the console shows its own translation of the code). */
  detail: string | ((params: P) => string);
  /** Field → messages, for `invalid` problems (Laravel's `errors`). */
  errors?: (params: P) => FieldErrors;
  /** Extension members of the body (RFC 9457 section 3.2), e.g. `{ first_scan_at }`. */
  extensions?: (params: P) => Record<string, unknown>;
  /** Seconds after which a retry may succeed (`rate_limited`, `unavailable`): `Retry-After`. */
  retryAfterSeconds?: (params: P) => number;
}

type IsAny<T> = 0 extends 1 & T ? true : false;
/** The parameter a spec function takes (`never` when it is absent or unannotated). */
type ParamOfFn<F> = F extends (params: infer P) => unknown ? (IsAny<P> extends true ? never : P) : never;
/**
 * The parameters of a spec: those of its first annotated function (`detail`, then `errors`,
 * `extensions`, `retryAfterSeconds`), or nothing (`void`) when none is annotated.
 */
type ParamsOf<S extends AnySpec> = [ParamOfFn<S['detail']>] extends [never]
  ? [ParamOfFn<S['errors']>] extends [never]
    ? [ParamOfFn<S['extensions']>] extends [never]
      ? [ParamOfFn<S['retryAfterSeconds']>] extends [never]
        ? void
        : ParamOfFn<S['retryAfterSeconds']>
      : ParamOfFn<S['extensions']>
    : ParamOfFn<S['errors']>
  : ParamOfFn<S['detail']>;

/** A problem's typed constructor: `problems.versionFrozen({ versionId })`. */
export type ProblemConstructor<P> = ([P] extends [void]
  ? () => ProblemError
  : (params: P) => ProblemError) & {
  readonly kind: ProblemKind;
  readonly code: string;
};

/** The constructors of a catalogue, by name. */
export type Problems<S extends Record<string, AnySpec>> = {
  readonly [K in keyof S]: ProblemConstructor<ParamsOf<S[K]>>;
};

/** A problem spec whose parameter type is read from its functions (`(p: { id: string }) => ...`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySpec = ProblemSpec<any>;

/**
 * Builds a service's problem catalogue: one typed constructor per problem type, each making a
 * {@link ProblemError} whose status comes from the spec's `kind` (never written by the domain).
 * Use cases refuse only by throwing these: `throw problems.versionFrozen({ versionId })`.
 * `npm run docs:problems` lists every entry (code, kind's status, file) in docs/problem-types.md.
 *
 * Throws at load time when two entries share a code, so a code names one problem type.
 */
export function defineProblems<const S extends Record<string, AnySpec>>(specs: S): Problems<S> {
  const seen = new Map<string, string>();
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const other = seen.get(spec.code);
    if (other) throw new Error(`problem code ${spec.code} is declared twice (${other}, ${name})`);
    seen.set(spec.code, name);
    const make = (params: unknown) => {
      const detail = typeof spec.detail === 'function' ? spec.detail(params) : spec.detail;
      const retry = spec.retryAfterSeconds?.(params);
      return new ProblemError(statusOfKind(spec.kind), detail, {
        code: spec.code,
        ...(spec.errors ? { errors: spec.errors(params) } : {}),
        ...(spec.extensions ? { extensions: spec.extensions(params) } : {}),
        ...(retry !== undefined ? { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retry))) } } : {}),
      });
    };
    out[name] = Object.assign(make, { kind: spec.kind, code: spec.code });
  }
  return out as Problems<S>;
}

/** Whether `err` is the problem a constructor of a catalogue makes (same code). */
export const isProblem = (err: unknown, ctor: { readonly code: string }): err is ProblemError =>
  err instanceof ProblemError && err.code === ctor.code;
