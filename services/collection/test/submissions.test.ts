import { expect } from 'chai';
import {
  addMember,
  body,
  cast,
  makeForm,
  PNG,
  seen,
  startHarness,
  type Form,
  type Harness,
  type TestUser,
} from './harness.ts';

describe('collection: submissions', () => {
  // alice owns the workspaces, bob and carol collect; dave reviews (a manager) or views, erin
  // manages; mallory, omar and peggy are strangers to the workspaces.
  const { alice, bob, carol, dave, erin, mallory, omar, peggy } = cast;
  let h: Harness;
  let form: Form;
  before(async () => {
    h = await startHarness(64 * 1024);
    form = await makeForm(h, alice);
    await addMember(h, alice, form.workspaceId, bob, 'collector');
    await addMember(h, alice, form.workspaceId, carol, 'collector');
  });
  after(async () => {
    await h?.close();
  });
  const post = (b: object, user = bob, p = form.projectId) =>
    h.as(user).post(`/api/v1/projects/${p}/submissions`).send(b);

  describe('validation of every type', () => {
    const cases: Array<[string, unknown[], unknown[]]> = [
      ['full_name', ['Ada', 'Ünïcødé ok'], [12, 'x'.repeat(21), ['a']]],
      ['code', ['ABC-12'], ['abc-12', 'ABC-123', 'xABC-12']],
      ['age', [0, 120, 36], [121, -1, 3.5, '36', true]],
      ['weight', [0.5, 72.25, 500], [0.4, 501, '7', {}]],
      ['visit_date', ['2024-02-29', '2023-12-31'], ['2023-02-29', '2024-13-01', '2024-1-01', '20240101', 5]],
      ['visit_time', ['00:00:00', '23:59:59'], ['24:00:00', '12:60:00', '12:00', '7:00:00', 1200]],
      ['colour', ['red', 'blue'], ['green', ['red'], 1]],
      ['fruits', [['apple'], ['apple', 'kiwi'], []], [['apple', 'apple'], ['mango'], 'apple', [1]]],
      [
        'place',
        [
          [48.8, 2.3, 35, 5],
          [-90, 180],
          [10, 20, 30],
        ],
        [[91, 0, 0, 1], [0, -181, 0, 1], [0, 0, 0, -1], [1], 'x', [1, 2, 3, 4, 5]],
      ],
    ];
    for (const [name, good, bad] of cases) {
      it(`${name}: accepts good values and names each bad entry`, async () => {
        for (const v of good) {
          const res = await post(body(form, { [name]: v }));
          expect(res.status, `${name}=${JSON.stringify(v)} ${JSON.stringify(res.body.errors)}`).to.equal(201);
        }
        for (const v of bad) {
          const res = await post(body(form, { [name]: v }));
          expect(res.status, `${name}=${JSON.stringify(v)}`).to.equal(422);
          const index = Object.keys({ full_name: 1, age: 1, [name]: 1 }).indexOf(name);
          expect(res.body.errors, `${name}=${JSON.stringify(v)}`).to.have.property(`data.${index}.value`);
        }
      });
    }

    it('reports unknown fields, wrong types, duplicates and missing required fields all at once', async () => {
      const b = body(form, { colour: 'red' });
      b.data.push({ field_uuid: '00000000-0000-4000-8000-000000000000', type: 'text', value: 'x' });
      b.data.push({ field_uuid: form.fields.full_name!.uuid, type: 'text', value: 'dup' });
      b.data.push({ field_uuid: form.fields.weight!.uuid, type: 'integer', value: 3 });
      b.data.splice(1, 1); // drop the required age
      const res = await post(b).expect(422);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.errors).to.have.keys('data.2.field_uuid', 'data.3', 'data.4.type', 'data');
      expect(res.body.errors.data[0]).to.match(/^age \(field_uuid .*\) is required/);
      expect(res.body.message).to.match(/and 3 more errors/);
    });

    it('refuses a submission body whose version, coordinates or data shape is wrong', async () => {
      expect((await post({ ...body(form), latitude: 91 }).expect(422)).body.errors).to.have.property(
        'latitude',
      );
      expect((await post({ ...body(form), longitude: -180.5 }).expect(422)).body.errors).to.have.property(
        'longitude',
      );
      expect((await post({ ...body(form), precision: -1 }).expect(422)).body.errors).to.have.property(
        'precision',
      );
      expect((await post({ ...body(form), altitude: 'high' }).expect(422)).body.errors).to.have.property(
        'altitude',
      );
      expect((await post({ ...body(form), data: 'x' }).expect(422)).body.errors).to.have.property('data');
      expect((await post({ ...body(form), data: [5] }).expect(422)).body.errors).to.have.property('data.0');
      expect(
        (await post({ ...body(form), form_version_id: undefined }).expect(422)).body.errors,
      ).to.have.property('form_version_id');
      await h
        .as(bob)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .set('Content-Type', 'application/json')
        .send('{"x":')
        .expect(400);
      // a draft version and a version of another project are refused
      const draft = (
        await h.as(alice).post(`/api/v1/projects/${form.projectId}/versions`).send({}).expect(201)
      ).body.data.id;
      const res = await post({ ...body(form), form_version_id: draft }).expect(422);
      expect(res.body.errors.form_version_id[0]).to.match(/draft/);
      const other = await makeForm(h, alice);
      const foreign = await post({ ...body(form), form_version_id: other.versionId }, alice).expect(422);
      expect(foreign.body.errors.form_version_id[0]).to.match(/does not belong/);
    });

    it('checks the required fields of a draft only when it is submitted', async () => {
      const b = body(form);
      b.data = [];
      const draft = await post({ ...b, status: 'draft' }).expect(201);
      expect(draft.body.data.status).to.equal('draft');
      const url = `/api/v1/projects/${form.projectId}/submissions/${draft.body.data.id}`;
      const refused = await h.as(bob).put(url).send({ status: 'submitted' }).expect(422);
      expect(refused.body.errors).to.have.property('data');
      const ok = await h
        .as(bob)
        .put(url)
        .send({ status: 'submitted', data: body(form).data })
        .expect(200);
      expect(ok.body.data.status).to.equal('submitted');
      expect(ok.body.data.submitted_at).to.match(/Z$/);
    });
  });

  describe('date-time answers (issue 35)', () => {
    // A form of its own: starts_at, and ends_at that must come after it (compared as instants,
    // whatever their offsets).
    let project: number;
    let version: number;
    const uuids: Record<string, string> = {};
    before(async () => {
      const ws = await h.as(alice).post('/api/v1/workspaces').send({ name: 'Meetings' }).expect(201);
      const p = await h.as(alice).post(`/api/v1/workspaces/${ws.body.data.id}/projects`).send({ name: 'M' });
      project = p.body.data.id;
      const v = await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201);
      version = v.body.data.id;
      for (const f of [
        { name: 'starts_at', label: 'Starts', type: 'datetime', required: true },
        {
          name: 'ends_at',
          label: 'Ends',
          type: 'datetime',
          constraint: '. > ${starts_at}',
          constraint_message: 'Ends after it starts',
        },
      ]) {
        const r = await h.as(alice).post(`/api/v1/versions/${version}/fields`).send(f).expect(201);
        uuids[f.name] = r.body.data.uuid;
      }
      await h.as(alice).post(`/api/v1/versions/${version}/publish`).expect(200);
      await h.as(alice).post(`/api/v1/projects/${project}/publish`).send({ collect_access: 'authenticated' });
    });
    const meeting = (values: Record<string, unknown>) =>
      post(
        {
          form_version_id: version,
          data: Object.entries(values).map(([name, value]) => ({
            field_uuid: uuids[name],
            type: 'datetime',
            value,
          })),
        },
        bob,
        project,
      );
    const MESSAGE =
      'must be a date-time as YYYY-MM-DDTHH:MM:SS with a UTC offset (Z or +HH:MM), e.g. 2031-06-12T19:00:00.000+02:00';

    it('stores a date-time with its offset as sent', async () => {
      for (const v of [
        '2031-06-12T19:00:00.000+02:00',
        '2031-06-12T17:00:00Z',
        '2024-02-29T23:59:59.123456789-09:30',
        '2031-01-01T00:00:00+14:00',
      ]) {
        const res = await meeting({ starts_at: v });
        expect(res.status, `${v} ${JSON.stringify(res.body.errors)}`).to.equal(201);
        const got = await h
          .as(alice)
          .get(`/api/v1/projects/${project}/submissions/${res.body.data.id}`)
          .expect(200);
        expect(got.body.data.data).to.deep.equal([
          { field_uuid: uuids.starts_at, type: 'datetime', value: v },
        ]);
      }
    });

    it('refuses a date-time without offset, with a bad day, hour or offset, or not a string (422)', async () => {
      for (const v of [
        '2031-06-12T19:00:00', // no offset
        '2031-06-12 19:00:00Z', // no T
        '2031-06-12T19:00Z', // no seconds
        '2023-02-29T10:00:00Z', // not a day
        '2031-06-12T24:00:00Z',
        '2031-06-12T19:00:00+15:00',
        '2031-06-12T19:00:00+0200',
        '2031-06-12',
        1_900_000_000_000,
      ]) {
        const res = await meeting({ starts_at: v });
        expect(res.status, String(v)).to.equal(422);
        expect(res.body.code).to.equal('validation_failed');
        expect(res.body.errors, String(v)).to.deep.equal({ 'data.0.value': [`starts_at ${MESSAGE}`] });
      }
    });

    it('compares date-times as instants in the form logic, whatever their offsets', async () => {
      // 18:30Z is after 19:00+02:00 (17:00Z), although its text sorts before it.
      await meeting({ starts_at: '2031-06-12T19:00:00.000+02:00', ends_at: '2031-06-12T18:30:00Z' }).expect(
        201,
      );
      const res = await meeting({
        starts_at: '2031-06-12T19:00:00.000+02:00',
        ends_at: '2031-06-12T18:30:00.000+02:00',
      }).expect(422);
      expect(res.body.errors).to.deep.equal({ 'data.1.value': ['Ends after it starts'] });
    });

    it('takes a date-time default and refuses one that is not a date-time (422 on default)', async () => {
      const v = await h.as(alice).post(`/api/v1/projects/${project}/versions`).send({}).expect(201);
      const add = (d: unknown) =>
        h
          .as(alice)
          .post(`/api/v1/versions/${v.body.data.id}/fields`)
          .send({ name: `at_${String(d).length}`, label: 'At', type: 'datetime', default: d });
      const ok = await add('2031-06-12T19:00:00+02:00').expect(201);
      expect(ok.body.data.default).to.equal('2031-06-12T19:00:00+02:00');
      const bad = await add('tomorrow').expect(422);
      expect(bad.body.errors).to.deep.equal({ default: [`default ${MESSAGE}`] });
    });
  });

  describe('status transitions and history', () => {
    before(async () => {
      await addMember(h, alice, form.workspaceId, dave, 'manager');
    });
    /** A new submission of bob's that dave sent back for correction; resolves with its URL. */
    const sentBack = async () => {
      const s = (await post(body(form)).expect(201)).body.data;
      const url = `/api/v1/projects/${form.projectId}/submissions/${s.id}`;
      await h
        .as(dave)
        .put(url)
        .send({ status: 'requires_correction', comment: 'Age looks wrong' })
        .expect(200);
      return url;
    };

    it('lets only its collector resubmit a submission sent back for correction', async () => {
      const url = await sentBack();
      await h.as(dave).put(url).send({ status: 'submitted' }).expect(403); // only its collector resubmits
      await h.as(carol).put(url).send({ status: 'submitted' }).expect(404); // another collector does not see it
    });

    it('records who moved a submission along the transition table, when, and with what comment', async () => {
      const url = await sentBack();
      await h
        .as(bob)
        .put(url)
        .send({ data: body(form, { age: 37 }).data })
        .expect(200); // correction
      await h.as(bob).put(url).send({ status: 'submitted', comment: 'fixed' }).expect(200);
      await h.as(dave).put(url).send({ status: 'reviewed' }).expect(200);
      const detail = await h.as(dave).get(url).expect(200);
      expect(detail.body.data.history.map((x: { to_status: string }) => x.to_status)).to.deep.equal([
        'submitted',
        'requires_correction',
        'submitted',
        'reviewed',
      ]);
      expect(detail.body.data.history[1]).to.include({
        from_status: 'submitted',
        user_id: dave.id,
        comment: 'Age looks wrong',
      });
      expect(detail.body.data.history[2]).to.include({ user_id: bob.id, comment: 'fixed' });
      expect(detail.body.data.history[3].created_at).to.match(/Z$/);
      expect(detail.body.data.data[1].value).to.equal(37);
    });

    it('refuses a transition outside the table, naming the current and requested statuses (422)', async () => {
      const s = (await post(body(form)).expect(201)).body.data;
      const url = `/api/v1/projects/${form.projectId}/submissions/${s.id}`;
      await h.as(dave).put(url).send({ status: 'reviewed' }).expect(200);
      const illegal = await h.as(dave).put(url).send({ status: 'draft' }).expect(422);
      expect(illegal.body).to.include({
        code: 'illegal_transition',
        current_status: 'reviewed',
        requested_status: 'draft',
      });
      expect(illegal.body.message).to.equal('A submission cannot go from status reviewed to draft.');
      await h.as(dave).put(url).send({ status: 'bogus' }).expect(422);
    });

    it('keeps a rejected submission rejected (422)', async () => {
      // rejected is final
      const r = (await post(body(form)).expect(201)).body.data;
      await h
        .as(dave)
        .put(`/api/v1/projects/${form.projectId}/submissions/${r.id}`)
        .send({ status: 'rejected' })
        .expect(200);
      await h
        .as(dave)
        .put(`/api/v1/projects/${form.projectId}/submissions/${r.id}`)
        .send({ status: 'reviewed' })
        .expect(422);
    });

    it('allows changing submitted data only with allow_edits', async () => {
      const s = (await post(body(form)).expect(201)).body.data;
      const url = `/api/v1/projects/${form.projectId}/submissions/${s.id}`;
      const no = await h
        .as(bob)
        .put(url)
        .send({ data: body(form, { age: 50 }).data })
        .expect(403);
      expect(no.body.code).to.equal('edits_not_allowed');
      await h
        .as(alice)
        .post(`/api/v1/projects/${form.projectId}/publish`)
        .send({ allow_edits: true })
        .expect(200);
      const yes = await h
        .as(bob)
        .put(url)
        .send({ data: body(form, { age: 50 }).data, latitude: 10 })
        .expect(200);
      expect(yes.body.data.data[1].value).to.equal(50);
      expect(yes.body.data.latitude).to.equal(10);
      await h
        .as(bob)
        .put(url)
        .send({ data: body(form, { age: 500 }).data })
        .expect(422);
      await h
        .as(carol)
        .put(url)
        .send({ data: body(form).data })
        .expect(404); // another collector does not even see it
      await h
        .as(alice)
        .post(`/api/v1/projects/${form.projectId}/publish`)
        .send({ allow_edits: false })
        .expect(200);
    });
  });

  describe('publication settings', () => {
    it('refuses submissions to an unpublished project', async () => {
      const f = await makeForm(h, alice, null);
      const res = await post(body(f), alice, f.projectId).expect(422);
      expect(res.body.code).to.equal('project_not_published');
      await h.as(alice).post(`/api/v1/projects/${f.projectId}/publish`).expect(200);
      await post(body(f), alice, f.projectId).expect(201);
      await h.as(alice).post(`/api/v1/projects/${f.projectId}/unpublish`).expect(200);
      await post(body(f), alice, f.projectId).expect(422);
    });

    it('collect_access members: refuses non-members (404) and anonymous callers (401)', async () => {
      const f = await makeForm(h, alice, { collect_access: 'members' });
      await seen(h, mallory);
      await post(body(f), mallory, f.projectId).expect(404);
      await h.anonymous().post(`/api/v1/projects/${f.projectId}/submissions`).send(body(f)).expect(401);
    });

    it('collect_access public: takes anonymous callers and non-members, who read the form but not the submissions', async () => {
      const f = await makeForm(h, alice, { collect_access: 'members' });
      await seen(h, mallory);
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${f.workspaceId}/projects/${f.projectId}/publish`)
        .send({ collect_access: 'public' })
        .expect(200);
      const anon = await h
        .anonymous()
        .post(`/api/v1/projects/${f.projectId}/submissions`)
        .send(body(f))
        .expect(201);
      expect(anon.body.data.collector_id).to.equal(null);
      await post(body(f), mallory, f.projectId).expect(201);
      // the public form is readable, but nothing else
      await h.anonymous().get(`/api/v1/projects/${f.projectId}`).expect(200);
      await h.anonymous().get(`/api/v1/versions/${f.versionId}/fields`).expect(200);
      await h.as(mallory).get(`/api/v1/projects/${f.projectId}/submissions`).expect(404);
    });

    it('collect_access authenticated: takes non-members, not anonymous callers (401)', async () => {
      const f = await makeForm(h, alice, { collect_access: 'members' });
      await seen(h, mallory);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ collect_access: 'authenticated' })
        .expect(200);
      await h.anonymous().post(`/api/v1/projects/${f.projectId}/submissions`).send(body(f)).expect(401);
      await post(body(f), mallory, f.projectId).expect(201);
    });

    it('collect_access: refuses an unknown value (422)', async () => {
      const f = await makeForm(h, alice, { collect_access: 'members' });
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ collect_access: 'everyone' })
        .expect(422);
    });

    it('publishes a project through its own workspace only (404 through another)', async () => {
      const f = await makeForm(h, alice, { collect_access: 'members' });
      // the workspace-scoped publish checks the workspace
      await h
        .as(alice)
        .post(`/api/v1/workspaces/${form.workspaceId}/projects/${f.projectId}/publish`)
        .send({})
        .expect(404);
    });

    it('submission_limit: 422 once reached', async () => {
      const f = await makeForm(h, alice, { submission_limit: 2 });
      await post(body(f), alice, f.projectId).expect(201);
      await post(body(f), alice, f.projectId).expect(201);
      const res = await post(body(f), alice, f.projectId).expect(422);
      expect(res.body.code).to.equal('submission_limit_reached');
      expect(res.body.message).to.match(/submission limit \(2\)/);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ submission_limit: 0 })
        .expect(422);
    });

    it('collect_starts_at / collect_expires_at: 422 outside the window', async () => {
      const f = await makeForm(h, alice, {
        collect_starts_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect((await post(body(f), alice, f.projectId).expect(422)).body.code).to.equal(
        'collection_not_started',
      );
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ collect_starts_at: '2020-01-01T00:00:00Z', collect_expires_at: '2021-01-01T00:00:00Z' })
        .expect(200);
      expect((await post(body(f), alice, f.projectId).expect(422)).body.code).to.equal('collection_ended');
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ collect_expires_at: null })
        .expect(200);
      await post(body(f), alice, f.projectId).expect(201);
      const bad = await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ collect_expires_at: '2019-01-01T00:00:00Z' })
        .expect(422);
      expect(bad.body.errors).to.have.property('collect_expires_at');
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ collect_starts_at: 'soon' })
        .expect(422);
    });

    it('allow_multiple_submissions false: one per collector', async () => {
      const f = await makeForm(h, alice, { allow_multiple_submissions: false });
      await addMember(h, alice, f.workspaceId, bob, 'collector');
      await post(body(f), bob, f.projectId).expect(201);
      expect((await post(body(f), bob, f.projectId).expect(422)).body.code).to.equal('already_submitted');
      await post(body(f), alice, f.projectId).expect(201);
    });

    /** A project of alice's published with require_consent and a consent_text; resolves with its form. */
    const consentForm = async () => {
      const f = await makeForm(h, alice, null);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ require_consent: true, consent_text: 'I agree to share this.' })
        .expect(200);
      return f;
    };

    it('require_consent: needs a consent_text (422), then returned with the project', async () => {
      const f = await makeForm(h, alice, null);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ require_consent: true })
        .expect(422);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ require_consent: true, consent_text: 'I agree to share this.' })
        .expect(200);
      const p = await h.as(alice).get(`/api/v1/projects/${f.projectId}`).expect(200);
      expect(p.body.data).to.include({ consent_text: 'I agree to share this.', require_consent: true });
    });

    it('require_consent: takes a submission only with consent: true', async () => {
      const f = await consentForm();
      expect((await post(body(f), alice, f.projectId).expect(422)).body.errors).to.have.property('consent');
      await post(body(f, {}, { consent: false }), alice, f.projectId).expect(422);
      const ok = await post(body(f, {}, { consent: true }), alice, f.projectId).expect(201);
      expect(ok.body.data.consent).to.equal(true);
    });

    it('notify_on_submission: needs valid notification_emails (422)', async () => {
      const f = await makeForm(h, alice, null);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ notify_on_submission: true })
        .expect(422);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ notify_on_submission: true, notification_emails: ['a@example.test', 'b@example.test'] })
        .expect(200);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ notification_emails: ['not-an-email'] })
        .expect(422);
    });

    it('notify_on_submission: writes an email.requested job to the outbox in the same transaction', async () => {
      const f = await makeForm(h, alice, null);
      await h
        .as(alice)
        .post(`/api/v1/projects/${f.projectId}/publish`)
        .send({ notify_on_submission: true, notification_emails: ['a@example.test', 'b@example.test'] })
        .expect(200);
      const before = h.outboxKicks;
      await h.db('outbox').delete();
      const s = await post(body(f), alice, f.projectId).expect(201);
      const rows = await h.db('outbox').select('exchange', 'message');
      expect(rows).to.have.length(1);
      expect(rows[0].exchange).to.equal('collection');
      expect(rows[0].message).to.deep.include({ type: 'email.requested', source: 'collection' });
      expect(rows[0].message.data.to).to.deep.equal(['a@example.test', 'b@example.test']);
      expect(rows[0].message.data.text).to.contain(`#${s.body.data.id}`);
      expect(h.outboxKicks).to.equal(before + 1);
      // a refused submission writes nothing
      await post({ ...body(f), latitude: 100 }, alice, f.projectId).expect(422);
      expect(await h.db('outbox').count({ n: '*' })).to.deep.equal([{ n: 1 }]);
    });
  });

  describe('photos', () => {
    /** A new submission of bob's with a PNG photo; resolves with the photo's entry. */
    const withPhoto = async (picture = PNG.toString('base64')) => {
      const s = await post(body(form, { picture })).expect(201);
      return s.body.data.data.find((e: { type: string }) => e.type === 'photo');
    };

    it('takes a photo in base64 or as a data URL, its type sniffed', async () => {
      const entry = await withPhoto();
      expect(entry.value).to.include({ content_type: 'image/png', size: PNG.length });
      // data URL form
      await post(body(form, { picture: `data:image/png;base64,${PNG.toString('base64')}` })).expect(201);
    });

    it('serves a photo only to those who may see its submission', async () => {
      const entry = await withPhoto();
      const dl = await h.as(bob).get(entry.value.url).expect(200);
      expect(dl.headers['content-type']).to.equal('image/png');
      expect(Buffer.compare(dl.body as Buffer, PNG)).to.equal(0);
      await h.as(alice).get(entry.value.url).expect(200); // owner
      await h.as(carol).get(entry.value.url).expect(404); // another collector
      await seen(h, omar);
      await h.as(omar).get(entry.value.url).expect(404);
      await h.anonymous().get(entry.value.url).expect(401);
    });

    it('refuses non-images (422), bad base64 (422) and photos over the limit (413)', async () => {
      const text = await post(
        body(form, { picture: Buffer.from('hello, not an image').toString('base64') }),
      ).expect(422);
      expect(text.body.errors).to.have.property('data.2.value');
      await post(body(form, { picture: 'not base64!' })).expect(422);
      const big = Buffer.concat([PNG, Buffer.alloc(70 * 1024)]);
      const res = await post(body(form, { picture: big.toString('base64') })).expect(413);
      expect(res.body.code).to.equal('photo_too_large');
    });

    it('rebuilds a kept photo from what the server stored: a url, content_type or size sent by the collector is never stored (issue 31)', async () => {
      const draft = await post(body(form, { picture: PNG.toString('base64') }, { status: 'draft' })).expect(
        201,
      );
      const url = `/api/v1/projects/${form.projectId}/submissions/${draft.body.data.id}`;
      const at = draft.body.data.data.findIndex((e: { type: string }) => e.type === 'photo') as number;
      const stored = draft.body.data.data[at].value as Record<string, unknown>;
      expect(stored).to.deep.equal({
        photo_id: stored.photo_id,
        content_type: 'image/png',
        size: PNG.length,
        url: `/api/v1/photos/${stored.photo_id}`,
      });
      const keeping = (value: unknown) => body(form, { picture: value }).data;
      const phish = {
        photo_id: stored.photo_id,
        url: 'http://127.0.0.1:18999/phish-login',
        content_type: 'text/html',
        size: -1,
      };
      const changed = await h
        .as(bob)
        .put(url)
        .send({ data: keeping(phish) })
        .expect(200);
      expect(changed.body.data.data[at].value).to.deep.equal(stored);
      const read = await h.as(alice).get(url).expect(200); // the reviewer's drawer reads this
      expect(read.body.data.data[at].value).to.deep.equal(stored);
      const row = (await h.db('submissions').where({ id: draft.body.data.id }).first('data')) as {
        data: Array<{ value: unknown }>;
      };
      expect(row.data[at]!.value).to.deep.equal(stored);
      // A client echoing the value it was given, or sending only the photo id, keeps the photo.
      const echoed = await h
        .as(bob)
        .put(url)
        .send({ data: keeping(stored) })
        .expect(200);
      expect(echoed.body.data.data[at].value).to.deep.equal(stored);
      const byId = await h
        .as(bob)
        .put(url)
        .send({ data: keeping({ photo_id: stored.photo_id }) })
        .expect(200);
      expect(byId.body.data.data[at].value).to.deep.equal(stored);
      // A photo of another submission is no kept photo: 422 on the entry, nothing stored.
      const other = await post(body(form, { picture: PNG.toString('base64') })).expect(201);
      const foreign = other.body.data.data[at].value as Record<string, unknown>;
      const refused = await h
        .as(bob)
        .put(url)
        .send({ data: keeping(foreign) })
        .expect(422);
      expect(refused.body).to.include({ status: 422, code: 'validation_failed' });
      expect(refused.body.errors).to.have.property(`data.${at}.value`);
      // The create path keeps no photo at all: a photo reference there is refused the same way.
      const created = await post(body(form, { picture: phish })).expect(422);
      expect(created.body.errors).to.have.property(`data.${at}.value`);
      expect((await h.as(alice).get(url).expect(200)).body.data.data[at].value).to.deep.equal(stored);
    });

    it('takes multipart uploads named by field uuid', async () => {
      const b = body(form);
      const res = await h
        .as(bob)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .field('submission', JSON.stringify(b))
        .attach(form.fields.picture!.uuid, PNG, {
          filename: 'x.bin',
          contentType: 'application/octet-stream',
        })
        .expect(201);
      const entry = res.body.data.data.find((e: { type: string }) => e.type === 'photo');
      expect(entry.value.content_type).to.equal('image/png');
      await h.as(bob).get(entry.value.url).expect(200);
      const big = Buffer.concat([PNG, Buffer.alloc(70 * 1024)]);
      await h
        .as(bob)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .field('submission', JSON.stringify(b))
        .attach(form.fields.picture!.uuid, big, 'big.png')
        .expect(413);
      await h
        .as(bob)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .field('submission', JSON.stringify(b))
        .attach(form.fields.age!.uuid, PNG, 'x.png')
        .expect(422);
      await h
        .as(bob)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .attach(form.fields.picture!.uuid, PNG, 'x.png')
        .expect(400);
    });
  });

  describe('listing and stats', () => {
    let f: Form;
    before(async () => {
      f = await makeForm(h, alice);
      await addMember(h, alice, f.workspaceId, bob, 'collector');
      await addMember(h, alice, f.workspaceId, carol, 'collector');
      const add = async (
        user: TestUser,
        day: string,
        status: string,
        name: string,
        fruits: string[] = [],
      ) => {
        const s = await post(body(f, { full_name: name, fruits }), user, f.projectId).expect(201);
        await h
          .db('submissions')
          .where({ id: s.body.data.id })
          .update({ created_at: `${day}T12:00:00Z`, status });
      };
      await add(bob, '2024-01-01', 'submitted', 'Alice Martin', ['kiwi']);
      await add(bob, '2024-01-02', 'reviewed', 'Bob Stone');
      await add(carol, '2024-01-02', 'submitted', 'Carol Martin');
      await add(carol, '2024-01-03', 'rejected', 'Dan Brown', ['apple', 'pear']);
      for (let i = 0; i < 20; i++) await add(bob, '2024-01-04', 'submitted', `Extra ${i}`);
    });
    const list = (q: string, user = alice) =>
      h.as(user).get(`/api/v1/projects/${f.projectId}/submissions?${q}`);
    const names = (res: { body: { data: Array<{ data: Array<{ value: unknown }> }> } }) =>
      res.body.data.map((s) => s.data[0]!.value);

    it('pages with the envelope, newest first, default 15, 422 out of range', async () => {
      const p1 = await list('').expect(200);
      expect(p1.body.pagination).to.deep.equal({ current_page: 1, last_page: 2, per_page: 15, total: 24 });
      const p2 = await list('page=2').expect(200);
      expect(p2.body.data).to.have.length(9);
      expect(names(p2).slice(-4)).to.deep.equal(['Dan Brown', 'Carol Martin', 'Bob Stone', 'Alice Martin']);
      expect((await list('page=3').expect(200)).body.data).to.have.length(0);
      for (const q of ['per_page=0', 'per_page=101', 'page=0', 'page=x', 'per_page=2.5'])
        await list(q).expect(422);
      const deep = await list('per_page=2&page=11').expect(200);
      expect(names(deep)).to.deep.equal(['Dan Brown', 'Carol Martin']);
      expect(names(await list('per_page=2&page=12').expect(200))).to.deep.equal([
        'Bob Stone',
        'Alice Martin',
      ]);
      expect(names(await list('per_page=3&page=7').expect(200))).to.deep.equal([
        'Extra 1',
        'Extra 0',
        'Dan Brown',
      ]);
      const deepStatus = await list('per_page=1&page=21&status=submitted').expect(200);
      expect(names(deepStatus)).to.deep.equal(['Carol Martin']);
    });

    it('filters by status, date_from/date_to (inclusive UTC days), collector_id and search', async () => {
      expect(names(await list('status=reviewed').expect(200))).to.deep.equal(['Bob Stone']);
      const days = await list('date_from=2024-01-02&date_to=2024-01-03').expect(200);
      expect(names(days)).to.deep.equal(['Dan Brown', 'Carol Martin', 'Bob Stone']);
      expect(
        (await list('date_from=2024-01-02&date_to=2024-01-02&status=submitted').expect(200)).body.pagination
          .total,
      ).to.equal(1);
      expect((await list(`collector_id=${carol.id}`).expect(200)).body.pagination.total).to.equal(2);
      expect(names(await list('search=martin').expect(200))).to.deep.equal(['Carol Martin', 'Alice Martin']);
      expect(names(await list('search=Kiwi').expect(200))).to.deep.equal(['Alice Martin']);
      expect(names(await list('search=pear&status=rejected').expect(200))).to.deep.equal(['Dan Brown']);
      // A page of matches and their total come from one query; past the last page, the total
      // alone; no match at all, one query too.
      const submissionQueries = async (query: string) => {
        const sqls: string[] = [];
        const spy = (q: { sql: string }) => sqls.push(q.sql);
        h.db.on('query', spy);
        const res = await list(query).expect(200);
        h.db.off('query', spy);
        return { res, n: sqls.filter((q) => q.includes('"submissions"')).length };
      };
      const none = await submissionQueries('search=nothing-here');
      expect([none.res.body.pagination.total, none.n]).to.deep.equal([0, 1]);
      const beyond = await submissionQueries('search=extra&per_page=5&page=9');
      expect([beyond.res.body.pagination.total, beyond.res.body.data.length, beyond.n]).to.deep.equal([
        20, 0, 2,
      ]);
      const counted = await submissionQueries('search=extra&per_page=5&page=2');
      expect(counted.n).to.equal(1);
      const matches = counted.res;
      expect(matches.body.pagination).to.deep.equal({
        current_page: 2,
        last_page: 4,
        per_page: 5,
        total: 20,
      });
      expect(names(matches)).to.deep.equal(['Extra 14', 'Extra 13', 'Extra 12', 'Extra 11', 'Extra 10']);
      expect(matches.body.data[0]).to.not.have.property('total');
      // Prefixes up to 20 characters are lexemes of their own; a longer word is a prefix query.
      const dan = (
        await h.db('submissions').where({ project_id: f.projectId }).whereILike('search_text', '%dan brown%')
      )[0];
      await h
        .db('submissions')
        .where({ id: dan.id })
        .update({ search_text: `${dan.search_text} Counterrevolutionaries` });
      for (const q of [
        'counterrev',
        'counterrevolutionari',
        'counterrevolutionarie',
        'COUNTERREVOLUTIONARIES',
      ])
        expect(names(await list(`search=${q}`).expect(200)), q).to.deep.equal(['Dan Brown']);
      expect((await list('search=counterrevolutionariesx').expect(200)).body.pagination.total).to.equal(0);
      const past = await list('search=extr&per_page=5&page=5').expect(200);
      expect(past.body.data).to.deep.equal([]);
      expect(past.body.pagination.total).to.equal(20);
      for (const q of [
        'status=done',
        'date_from=2024-02-30',
        'date_to=yesterday',
        'collector_id=x',
        'date_from=2024-01-03&date_to=2024-01-01',
      ])
        await list(q).expect(422);
    });

    it('stats: totals per status, per day, per collector, last submission time', async () => {
      const res = await h.as(alice).get(`/api/v1/projects/${f.projectId}/stats`).expect(200);
      expect(res.body.data.total).to.equal(24);
      expect(res.body.data.by_status).to.deep.equal({
        submitted: 22,
        draft: 0,
        reviewed: 1,
        rejected: 1,
        requires_correction: 0,
      });
      expect(res.body.data.by_day).to.deep.equal([
        { date: '2024-01-01', count: 1 },
        { date: '2024-01-02', count: 2 },
        { date: '2024-01-03', count: 1 },
        { date: '2024-01-04', count: 20 },
      ]);
      expect(res.body.data.by_collector).to.deep.equal([
        { collector_id: bob.id, name: bob.name, count: 22 },
        { collector_id: carol.id, name: carol.name, count: 2 },
      ]);
      expect(res.body.data.last_submission_at).to.equal('2024-01-04T12:00:00.000Z');
    });
  });

  describe('deleting a submission', () => {
    /**
     * A form of alice's where bob collects, dave views and erin manages, with two of bob's
     * submissions, the first with a photo; resolves with the form and the first one.
     */
    const twoSubmissions = async () => {
      const f = await makeForm(h, alice);
      await addMember(h, alice, f.workspaceId, bob, 'collector');
      await addMember(h, alice, f.workspaceId, dave, 'viewer');
      await addMember(h, alice, f.workspaceId, erin, 'manager');
      await seen(h, peggy);
      const sent = await post(body(f, { picture: PNG.toString('base64') }), bob, f.projectId).expect(201);
      await post(body(f), bob, f.projectId).expect(201);
      const id = sent.body.data.id as number;
      const url = `/api/v1/projects/${f.projectId}/submissions/${id}`;
      const photo = sent.body.data.data.find((e: { type: string }) => e.type === 'photo').value.url as string;
      return { f, id, url, photo };
    };

    it('refuses deleting a submission to its collector and viewers (403) and to strangers (404)', async () => {
      const { url } = await twoSubmissions();
      expect((await h.as(bob).delete(url).expect(403)).body.code).to.equal('forbidden'); // its own collector
      await h.as(dave).delete(url).expect(403); // viewer
      await h.as(peggy).delete(url).expect(404); // not a member
    });

    it('answers 404 for deleting a submission that does not exist', async () => {
      const { f } = await twoSubmissions();
      await h.as(erin).delete(`/api/v1/projects/${f.projectId}/submissions/999999999`).expect(404);
    });

    it('lets a manager delete a submission for good: its photos, its count and its history', async () => {
      const { f, id, url, photo } = await twoSubmissions();
      const history = async () =>
        Number((await h.db('submission_history').where({ submission_id: id }).count({ n: '*' }))[0]!.n);
      expect(await history()).to.be.above(0);
      await h.as(erin).delete(url).expect(204);

      await h.as(alice).get(url).expect(404);
      await h.as(alice).get(photo).expect(404);
      await h.as(erin).delete(url).expect(404);
      const stats = await h.as(alice).get(`/api/v1/projects/${f.projectId}/stats`).expect(200);
      expect(stats.body.data.total).to.equal(1);
      expect(await history()).to.equal(0);
      const listed = await h.as(alice).get(`/api/v1/projects/${f.projectId}/submissions`).expect(200);
      expect(listed.body.data.map((x: { id: number }) => x.id)).to.not.include(id);
    });
  });
});
