import { expect } from 'chai';
import { defineProblems, isProblem, KIND_STATUS, ProblemError } from '@fieldhouse/problem';

const problems = defineProblems({
  versionFrozen: {
    kind: 'conflict',
    code: 'version_frozen',
    detail: (p: { versionId: string }) => `Version ${p.versionId} is published and cannot change.`,
  },
  projectMissing: { kind: 'not_found', code: 'project_not_found', detail: 'No such project.' },
  fieldInvalid: {
    kind: 'invalid',
    code: 'field_invalid',
    detail: (p: { field: string; message: string }) => p.message,
    errors: (p: { field: string; message: string }) => ({ [p.field]: [p.message] }),
  },
  alreadyIn: {
    kind: 'conflict',
    code: 'already_checked_in',
    detail: 'Already checked in.',
    extensions: (p: { at: string }) => ({ first_scan_at: p.at }),
  },
  slowDown: {
    kind: 'rate_limited',
    code: 'too_many_scans',
    detail: 'Too many scans.',
    retryAfterSeconds: (p: { seconds: number }) => p.seconds,
  },
});

describe('libs/problem: a problem catalogue (defineProblems)', () => {
  it("makes a ProblemError whose status is its kind's and whose detail comes from the parameters", () => {
    const err = problems.versionFrozen({ versionId: 'v7' });
    expect(err).to.be.instanceOf(ProblemError);
    expect(err.toBody()).to.include({
      status: 409,
      code: 'version_frozen',
      type: 'urn:fieldhouse:problem:version-frozen',
      detail: 'Version v7 is published and cannot change.',
    });
  });

  it('takes no parameters for a problem whose detail is a fixed sentence', () => {
    expect(problems.projectMissing().toBody()).to.include({ status: 404, detail: 'No such project.' });
  });

  it('carries field errors, extension members and Retry-After from their parameters', () => {
    expect(problems.fieldInvalid({ field: 'age', message: 'Too old.' }).toBody()).to.deep.include({
      status: 422,
      errors: { age: ['Too old.'] },
    });
    expect(problems.alreadyIn({ at: '2026-11-28T20:00:00Z' }).toBody()).to.include({
      first_scan_at: '2026-11-28T20:00:00Z',
    });
    const slow = problems.slowDown({ seconds: 2.2 });
    expect(slow.status).to.equal(429);
    expect(slow.headers).to.deep.equal({ 'Retry-After': '3' });
  });

  it("exposes each constructor's code and kind, and recognises its problems", () => {
    expect(problems.versionFrozen.code).to.equal('version_frozen');
    expect(problems.versionFrozen.kind).to.equal('conflict');
    expect(isProblem(problems.versionFrozen({ versionId: 'x' }), problems.versionFrozen)).to.equal(true);
    expect(isProblem(problems.projectMissing(), problems.versionFrozen)).to.equal(false);
    expect(isProblem(new Error('x'), problems.versionFrozen)).to.equal(false);
  });

  it('refuses a catalogue that declares one code twice', () => {
    expect(() =>
      defineProblems({
        a: { kind: 'conflict', code: 'same', detail: 'A.' },
        b: { kind: 'gone', code: 'same', detail: 'B.' },
      }),
    ).to.throw(/same is declared twice \(a, b\)/);
  });

  it('maps every kind to a 4xx or 5xx status', () => {
    for (const status of Object.values(KIND_STATUS)) expect(status).to.be.within(400, 599);
  });
});
