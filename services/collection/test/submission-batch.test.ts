import { expect } from 'chai';
import { projectLookups } from '../src/data/projects.ts';
import { submissionGroupCommit } from '../src/data/submission-batch.ts';
import type { NewSubmission } from '../src/data/submissions.ts';
import { testLogger } from '@fieldhouse/testkit';
import { addMember, body, cast, makeForm, startHarness, type Form, type Harness } from './harness.ts';

describe('collection: group commit of plain submissions and project lookups (real PostgreSQL)', () => {
  // alice owns the workspace, erin collects in it; grace owns another.
  const { alice, erin, grace } = cast;
  let h: Harness;
  let f: Form;
  before(async () => {
    h = await startHarness();
    f = await makeForm(h, alice);
  });
  after(async () => h?.close());

  it('concurrent submissions each get their own row, history entry and exact counts', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `Person ${i}`);
    const statements: string[] = [];
    const spy = (q: { sql: string }) => statements.push(q.sql);
    h.db.on('query', spy);
    const answers = await Promise.all(
      names.map((full_name, i) =>
        h
          .as(alice)
          .post(`/api/v1/projects/${f.projectId}/submissions`)
          .send(body(f, { full_name, age: i }, { status: i % 4 === 0 ? 'draft' : 'submitted' })),
      ),
    );
    h.db.off('query', spy);
    expect(answers.map((a) => a.status)).to.deep.equal(names.map(() => 201));
    const batchedInserts = statements.filter(
      (q) => q.includes('INSERT INTO submissions') && q.includes('jsonb_to_recordset'),
    );
    expect(batchedInserts.length, 'submissions written in batches').to.be.at.least(1);
    expect(statements.filter((q) => q.includes('INSERT INTO submissions')).length).to.be.below(40);
    const ids = new Set<number>();
    answers.forEach((a, i) => {
      const d = a.body.data as { id: number; status: string; data: Array<{ value: unknown }> };
      ids.add(d.id);
      expect(d.status).to.equal(i % 4 === 0 ? 'draft' : 'submitted');
      expect(d.data.map((e) => e.value))
        .to.include(names[i])
        .and.include(i);
    });
    expect(ids.size).to.equal(40);
    // each answer is the stored row of its own request
    for (const a of answers) {
      const stored = await h.db('submissions').where({ id: a.body.data.id }).first('data');
      expect(stored.data).to.deep.equal(a.body.data.data);
    }
    const history = await h.db('submission_history').whereIn('submission_id', [...ids]);
    expect(history).to.have.length(40);
    const stats = await h.as(alice).get(`/api/v1/projects/${f.projectId}/stats`).expect(200);
    expect(stats.body.data.total).to.equal(40);
    expect(stats.body.data.by_status).to.include({ draft: 10, submitted: 30 });
    const search = await h
      .as(alice)
      .get(`/api/v1/projects/${f.projectId}/submissions?search=person`)
      .expect(200);
    expect(search.body.pagination.total).to.equal(40);
  });

  it('when the batch statement fails, inserts each alone: only the bad one fails', async () => {
    const write = submissionGroupCommit(h.db, testLogger('collection'));
    const row = (full: string, formVersionId = f.versionId): NewSubmission => ({
      project_id: f.projectId,
      form_version_id: formVersionId,
      collector_id: alice.id,
      status: 'submitted',
      latitude: null,
      longitude: null,
      altitude: null,
      precision: null,
      data: [{ field_uuid: f.fields.full_name!.uuid, type: 'text', value: full }],
      search_text: full,
      consent: null,
    });
    const bad = { ...row('Bad'), project_id: 999_999 }; // no such project: foreign key violation
    const [first, good, refused, last] = await Promise.allSettled([
      write(row('First')),
      write(row('Good')),
      write(bad),
      write(row('Last')),
    ]);
    for (const r of [first, good, last]) expect(r.status).to.equal('fulfilled');
    expect(refused.status).to.equal('rejected');
    const stored = await h
      .db('submissions')
      .whereIn('search_text', ['First', 'Good', 'Bad', 'Last'])
      .pluck('search_text');
    expect(stored.sort()).to.deep.equal(['First', 'Good', 'Last']);
  });

  it('answers lookups that waited together, each with its own project and role', async () => {
    const other = await makeForm(h, grace);
    await addMember(h, alice, f.workspaceId, erin, 'collector');
    const lookup = projectLookups(h.db);
    const asked: Array<[number, number | null]> = [
      [f.projectId, alice.id], // owner
      [f.projectId, erin.id], // collector
      [f.projectId, grace.id], // not a member of this one
      [other.projectId, grace.id], // owner of the other
      [other.projectId, null], // anonymous
      [999_999, alice.id], // no such project
      [3_000_000_000, alice.id], // beyond a PostgreSQL integer: still just not found
      [f.projectId, erin.id], // the same lookup twice
    ];
    const found = await Promise.all(asked.map(([p, u]) => lookup(p, u)));
    expect(found.map((x) => (x ? [x.project.id, x.role] : null))).to.deep.equal([
      [f.projectId, 'owner'],
      [f.projectId, 'collector'],
      [f.projectId, null],
      [other.projectId, 'owner'],
      [other.projectId, null],
      null,
      null,
      [f.projectId, 'collector'],
    ]);
    expect(found[0]!.project).to.include({ workspace_id: f.workspaceId, is_published: true });
  });
});
