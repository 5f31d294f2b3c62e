import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { KIND_STATUS, type ProblemKind } from '@fieldhouse/problem';

/** The status of each problem constructor of @fieldhouse/problem, by name. */
const CONSTRUCTOR_STATUS: Record<string, number> = {
  badRequest: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  payloadTooLarge: 413,
  validationFailed: 422,
  unprocessable: 422,
  tooManyRequests: 429,
};

/** One problem type a component can answer: its code, URN, statuses and where it is raised. */
export interface ProblemType {
  code: string;
  type: string;
  statuses: number[];
  files: string[];
}

/** The components whose problem types are catalogued, and their sources. */
export const COMPONENTS: Record<string, string[]> = {
  'every component (libs)': ['libs/problem/src', 'libs/http/src', 'libs/internal-auth/src'],
  gateway: ['gateway/src'],
  collection: ['services/collection/src'],
  polls: ['services/polls/src'],
  events: ['services/events/src'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The name of a called function: `notFound` of `notFound()` and of `problem.notFound()`; none for
 * a catalogue's constructor (`problems.notFound()`), whose entry is read where it is declared.
 */
const calleeName = (e: ts.Expression) =>
  ts.isIdentifier(e)
    ? e.text
    : ts.isPropertyAccessExpression(e) && !(ts.isIdentifier(e.expression) && e.expression.text === 'problems')
      ? e.name.text
      : undefined;

/** The codes a `code:` value can be: a string literal, or both literal branches of `c ? 'a' : 'b'`. */
function literalCodes(e: ts.Expression): string[] {
  if (ts.isStringLiteralLike(e)) return [e.text];
  if (ts.isParenthesizedExpression(e)) return literalCodes(e.expression);
  if (ts.isConditionalExpression(e)) return [...literalCodes(e.whenTrue), ...literalCodes(e.whenFalse)];
  return [];
}

/** The `code: '...'` of an object literal argument (both of a conditional's), if any. */
function codesOf(args: readonly ts.Expression[]): string[] {
  for (const arg of args) {
    if (!ts.isObjectLiteralExpression(arg)) continue;
    for (const p of arg.properties)
      if (ts.isPropertyAssignment(p) && p.name.getText() === 'code') return literalCodes(p.initializer);
  }
  return [];
}

/** Whether a problem's options pass the `code` parameter through (`{ code, ... }`). */
const passesCode = (args: readonly ts.Expression[]) =>
  args.some(
    (a) =>
      ts.isObjectLiteralExpression(a) &&
      a.properties.some((p) => ts.isShorthandPropertyAssignment(p) && p.name.text === 'code'),
  );

/**
 * Local helpers that make a problem from their first parameter `code`
 * (`const otpError = (code, message) => new ProblemError(422, message, { code })`): name → status.
 */
function codeHelpers(source: ts.SourceFile): Map<string, number> {
  const helpers = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    const fn = ts.isFunctionDeclaration(node)
      ? node
      : ts.isVariableDeclaration(node)
        ? node.initializer
        : undefined;
    const named = ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node) ? node.name : undefined;
    const name = named && ts.isIdentifier(named) ? named.text : undefined;
    if (
      name &&
      fn &&
      (ts.isFunctionDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
      fn.parameters[0]?.name.getText() === 'code'
    ) {
      const find = (n: ts.Node): void => {
        if (ts.isNewExpression(n) && n.arguments && calleeName(n.expression) === 'ProblemError') {
          const status = statusOf('ProblemError', n.arguments);
          if (status && passesCode(n.arguments)) helpers.set(name, status);
        }
        ts.forEachChild(n, find);
      };
      find(fn);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return helpers;
}

/** A status and code written as a table row, `[410, 'setup_code_used', '...']`. */
function tupleProblem(node: ts.ArrayLiteralExpression): { status: number; code: string } | undefined {
  const [first, second] = node.elements;
  if (!first || !second || !ts.isNumericLiteral(first) || !ts.isStringLiteralLike(second)) return undefined;
  const status = Number(first.text);
  return status >= 400 && status < 600 && /^[a-z]+(_[a-z]+)+$/.test(second.text)
    ? { status, code: second.text }
    : undefined;
}

/** The string literal value of an object literal's property `name`, if it is one. */
function literalProperty(node: ts.ObjectLiteralExpression, name: string): string | undefined {
  for (const p of node.properties)
    if (ts.isPropertyAssignment(p) && p.name.getText() === name && ts.isStringLiteralLike(p.initializer))
      return p.initializer.text;
  return undefined;
}

/** An entry of a problem catalogue, `{ kind: 'conflict', code: 'version_frozen', ... }` (defineProblems). */
function catalogueEntry(node: ts.ObjectLiteralExpression): { status: number; code: string } | undefined {
  const kind = literalProperty(node, 'kind');
  const code = literalProperty(node, 'code');
  if (!kind || !code || !Object.hasOwn(KIND_STATUS, kind)) return undefined;
  return { status: KIND_STATUS[kind as ProblemKind], code };
}

/** The status a problem-making call answers: the constructor's, or its first numeric argument. */
function statusOf(name: string, args: readonly ts.Expression[]): number | undefined {
  if (Object.hasOwn(CONSTRUCTOR_STATUS, name)) return CONSTRUCTOR_STATUS[name];
  if (name !== 'ProblemError' && name !== 'problemBody') return undefined;
  const first = args[0];
  return first && ts.isNumericLiteral(first) ? Number(first.text) : undefined;
}

/** The default code of a constructor called without one (`notFound()` is `not_found`). */
const DEFAULT_CODE: Record<string, string> = {
  badRequest: 'bad_request',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  validationFailed: 'validation_failed',
  unprocessable: 'validation_failed',
  tooManyRequests: 'rate_limited',
};

/**
 * Reads the component's sources (TypeScript syntax trees, no execution) and lists every problem
 * `code` they raise through a problem catalogue's entry (`{ kind, code, ... }` given to
 * defineProblems: the kind's status), `new ProblemError(status, detail, {code})`, `problemBody(...)` or the
 * constructors of @fieldhouse/problem (a `code` that is `c ? 'a' : 'b'` counts both), through a
 * local helper taking the code as its first parameter (`otpError('otp_used', ...)`), or as a
 * table row `[status, 'code', ...]`, with its statuses and files. Sorted by code.
 */
export function catalogue(root: string, dirs: string[]): ProblemType[] {
  const found = new Map<string, { statuses: Set<number>; files: Set<string> }>();
  for (const file of dirs.flatMap((d) => sourceFiles(join(root, d)))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const helpers = codeHelpers(source);
    const add = (code: string, status: number) => {
      const entry = found.get(code) ?? { statuses: new Set(), files: new Set() };
      entry.statuses.add(status);
      entry.files.add(relative(root, file));
      found.set(code, entry);
    };
    const visit = (node: ts.Node): void => {
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments) {
        const name = calleeName(node.expression);
        const status = name ? statusOf(name, node.arguments) : undefined;
        const explicit = codesOf(node.arguments);
        const codes = explicit.length
          ? explicit
          : name && name !== 'ProblemError' && Object.hasOwn(DEFAULT_CODE, name)
            ? [DEFAULT_CODE[name]!]
            : [];
        if (status) for (const code of codes) add(code, status);
        const helper = name ? helpers.get(name) : undefined;
        const first = node.arguments[0];
        if (helper && first && ts.isStringLiteralLike(first)) add(first.text, helper);
      }
      if (ts.isObjectLiteralExpression(node)) {
        const entry = catalogueEntry(node);
        if (entry) add(entry.code, entry.status);
      }
      if (ts.isArrayLiteralExpression(node)) {
        const row = tupleProblem(node);
        if (row) add(row.code, row.status);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, e]) => ({
      code,
      type: `urn:fieldhouse:problem:${code.replaceAll('_', '-')}`,
      statuses: [...e.statuses].sort(),
      files: [...e.files].sort(),
    }));
}

/** The catalogue as Markdown (docs/problem-types.md): one table per component. */
export function catalogueMarkdown(root: string): string {
  const lines = [
    '# Problem types',
    '',
    '<!-- Generated by `npm run docs:problems` (scripts/problem-catalogue.ts) from the sources; a test',
    '     fails when this file is out of date. Do not edit by hand. -->',
    '',
    'Every error is an RFC 9457 problem document (`application/problem+json`) with `type`, `title`,',
    '`status`, `detail`, the same sentence in `message`, and, for the types below, a stable `code`.',
    'Clients rely on `code` (or `type`, the same thing as a URN), never on `detail`. A problem without',
    'a code has `type: about:blank`. 422 `validation_failed` also carries `errors`: field → messages.',
    '',
  ];
  for (const [component, dirs] of Object.entries(COMPONENTS)) {
    lines.push(`## ${component}`, '', '| code | type | status | raised in |', '| --- | --- | --- | --- |');
    for (const p of catalogue(root, dirs))
      lines.push(
        `| \`${p.code}\` | \`${p.type}\` | ${p.statuses.join(', ')} | ${p.files.map((f) => `\`${f}\``).join(', ')} |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}
