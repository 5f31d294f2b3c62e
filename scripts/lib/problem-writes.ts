import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The constructors of @fieldhouse/problem that fix an HTTP status (and so a problem) where they
 * are called: in a service, only its catalogue (`domain/problems.ts`) may make problems.
 */
const STATUS_CONSTRUCTORS = new Set([
  'badRequest',
  'unauthenticated',
  'forbidden',
  'notFound',
  'conflict',
  'payloadTooLarge',
  'tooManyRequests',
  'validationFailed',
  'unprocessable',
  'problemBody',
]);

/** A problem `code` as the services write them: snake_case. */
const CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$|^[a-z]+$/;

/** One place where a file writes a problem or an HTTP error status: `<file>:<line>: <what>`. */
export type ProblemWrite = string;

/**
 * The problem writings of one source text (issue 33: "the catalogue the only place a code is
 * written; HTTP statuses exist only at the HTTP edge"), found on its syntax tree (comments and
 * docstrings do not count):
 * - `new ProblemError(...)`;
 * - a call of a status constructor of @fieldhouse/problem imported by the file (`notFound(...)`,
 *   `forbidden(...)`, `validationFailed(...)`...);
 * - `code: '<snake_case>'`, a problem code written as a literal;
 * - an HTTP error status as a literal: `status: 4xx|5xx`, `.status(4xx|5xx)`, `statusCode = 4xx`.
 * `file` is the name used in the answers.
 */
export function problemWritesOf(file: string, text: string): ProblemWrite[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imported = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== '@fieldhouse/problem') continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        if (STATUS_CONSTRUCTORS.has((element.propertyName ?? element.name).text))
          imported.add(element.name.text);
  }
  const writes: ProblemWrite[] = [];
  const at = (node: ts.Node, what: string) =>
    writes.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const isErrorStatus = (e: ts.Expression) =>
    ts.isNumericLiteral(e) && Number(e.text) >= 400 && Number(e.text) <= 599;

  const visit = (node: ts.Node): void => {
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'ProblemError'
    ) {
      at(node, 'new ProblemError(...)');
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      imported.has(node.expression.text)
    ) {
      at(node, `${node.expression.text}(...) of @fieldhouse/problem`);
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      if (node.expression.name.text === 'status' && node.arguments[0] && isErrorStatus(node.arguments[0]))
        at(node, `.status(${node.arguments[0].getText()})`);
    } else if (ts.isPropertyAssignment(node) && !ts.isComputedPropertyName(node.name)) {
      const name = node.name.getText().replace(/['"]/g, '');
      if (name === 'code' && ts.isStringLiteralLike(node.initializer) && CODE.test(node.initializer.text))
        at(node, `code: '${node.initializer.text}'`);
      if ((name === 'status' || name === 'statusCode') && isErrorStatus(node.initializer))
        at(node, `${name}: ${node.initializer.getText()}`);
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      ['status', 'statusCode'].includes(node.left.name.text) &&
      isErrorStatus(node.right)
    ) {
      at(node, `${node.left.name.text} = ${node.right.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return writes;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Every problem writing in `services/<service>/src` outside its catalogue `domain/problems.ts`,
 * as `<path from root>:<line>: <what>`, in file order. Migrations are included: a payload or a
 * status written in SQL text is not seen (strings are not parsed), a literal in TypeScript is.
 */
export function problemWritesOutsideCatalogue(root: string, service: string): ProblemWrite[] {
  const src = join(root, 'services', service, 'src');
  return sourceFiles(src)
    .filter((path) => relative(src, path) !== join('domain', 'problems.ts'))
    .sort()
    .flatMap((path) => problemWritesOf(relative(root, path), readFileSync(path, 'utf8')));
}
