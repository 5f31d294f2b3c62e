import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { problemWritesOf, problemWritesOutsideCatalogue } from '../lib/problem-writes.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The services whose src is held to "problem codes and HTTP error statuses are written only in
 * domain/problems.ts" (issue 33, docs/architecture.md, "Checks"). A service is switched on once
 * its catalogue holds every problem it answers; switch a new service on when it gets one.
 */
const ENFORCED: Record<string, boolean> = {
  collection: true,
  polls: true,
  events: true,
};

describe('problem codes live only in the catalogues (services/<svc>/src/domain/problems.ts)', () => {
  for (const [service, enforced] of Object.entries(ENFORCED)) {
    if (!enforced) continue;
    it(`${service}: no file of src but domain/problems.ts writes a problem code or an HTTP error status`, () => {
      expect(problemWritesOutsideCatalogue(root, service)).to.deep.equal([]);
    });
  }

  it('finds new ProblemError, the status constructors of @fieldhouse/problem, code literals and error statuses', () => {
    const source = [
      "import { ProblemError, notFound as missing, forbidden } from '@fieldhouse/problem';",
      '/** A docstring may say notFound(), code: "x" and status: 404. */',
      "const a = new ProblemError(409, 'Taken.', { code: 'email_taken' });",
      'const b = missing();',
      "const c = { status: 422, body: { code: 'too_late' } };",
      'res.status(503);',
      'err.statusCode = 429;',
      'const ok = { status: 201, code: problems.emailTaken.code, forbidden: true };',
    ].join('\n');
    expect(problemWritesOf('x.ts', source)).to.deep.equal([
      'x.ts:3: new ProblemError(...)',
      "x.ts:3: code: 'email_taken'",
      'x.ts:4: missing(...) of @fieldhouse/problem',
      'x.ts:5: status: 422',
      "x.ts:5: code: 'too_late'",
      'x.ts:6: .status(503)',
      'x.ts:7: statusCode = 429',
    ]);
  });
});
