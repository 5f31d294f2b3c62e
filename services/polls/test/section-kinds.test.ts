import { expect } from 'chai';
import request from 'supertest';
import { alice, bob, crowd, startHarness, type PollsHarness } from './harness.ts';

/** A poll with one section of each kind (docs/polls.md, "Section kinds"). */
const kindsBody = () => ({
  title: 'Offsite',
  sections: [
    { title: 'City', options: [{ label: 'Lyon' }, { label: 'Nantes' }] },
    {
      title: 'Activities',
      kind: 'multiple',
      min_choices: 1,
      max_choices: 2,
      options: [{ label: 'Hike' }, { label: 'Boat' }, { label: 'Museum' }],
    },
    { title: 'Dinner', kind: 'ranked', options: [{ label: 'Thai' }, { label: 'Pizza' }, { label: 'Tapas' }] },
    {
      title: 'Kick-off call',
      kind: 'meeting',
      options: [
        { label: 'Mon 10:00', starts_at: '2027-01-04T09:00:00Z', ends_at: '2027-01-04T10:00:00Z' },
        { label: 'Tue 14:00', starts_at: '2027-01-05T13:00:00Z' },
        { label: 'Wed 09:00', starts_at: '2027-01-06T08:00:00Z', ends_at: '2027-01-06T08:30:00Z' },
      ],
    },
  ],
});

interface KindsPoll {
  id: string;
  sections: Array<{
    id: string;
    kind?: string;
    min_choices?: number;
    max_choices?: number;
    final_option_id?: string | null;
    options: Array<{ id: string; starts_at?: string; ends_at?: string | null }>;
  }>;
}

describe('section kinds: multiple, ranked and meeting (API, real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  let poll: KindsPoll;
  before(async () => {
    h = await startHarness();
    poll = (await h.createPoll(alice, kindsBody())) as unknown as KindsPoll;
  });
  after(async () => {
    await h?.stop();
  });

  const ids = (s: number) => poll.sections[s]!.options.map((o) => o.id);
  const id = (s: number, o: number) => poll.sections[s]!.options[o]!.id;
  const vote = (voter: number, body: object) =>
    request(h.app).post(`/api/polls/${poll.id}/vote`).set('Authorization', h.auth(voter)).send(body);
  const results = async () =>
    (
      await request(h.app)
        .get(`/api/polls/${poll.id}/results`)
        .set('Authorization', h.auth(alice))
        .expect(200)
    ).body.data;
  /** A full ballot: city, activities, dinner ranking, availability per slot. */
  const ballot = (city: number, activities: number[], ranking: number[], slots: string[]) => ({
    votes: { [poll.sections[0]!.id]: ids(0)[city] },
    answers: {
      [poll.sections[1]!.id]: activities.map((i) => ids(1)[i]),
      [poll.sections[2]!.id]: ranking.map((i) => ids(2)[i]),
      [poll.sections[3]!.id]: Object.fromEntries(slots.map((a, i) => [ids(3)[i], a])),
    },
  });

  it('creates the sections with their kinds; a single section is shown as before (no kind field)', () => {
    expect(poll.sections[0]).to.not.have.property('kind');
    expect(poll.sections[1]).to.include({ kind: 'multiple', min_choices: 1, max_choices: 2 });
    expect(poll.sections[2]).to.include({ kind: 'ranked' });
    expect(poll.sections[3]).to.include({ kind: 'meeting', final_option_id: null });
    expect(poll.sections[3]!.options[0]).to.include({
      starts_at: '2027-01-04T09:00:00.000Z',
      ends_at: '2027-01-04T10:00:00.000Z',
    });
    expect(poll.sections[3]!.options[1]).to.include({ ends_at: null });
  });

  it('refuses bad kind settings with 422 naming each field', async () => {
    const body = kindsBody();
    body.sections[1]!.max_choices = 4;
    delete (body.sections[3]!.options[1] as { starts_at?: string }).starts_at;
    (body.sections[3]!.options[2] as { ends_at?: string }).ends_at = '2027-01-06T07:00:00Z';
    (body.sections[0]!.options[0] as { starts_at?: string }).starts_at = '2027-01-06T07:00:00Z';
    const res = await request(h.app)
      .post('/api/polls')
      .set('Authorization', h.auth(alice))
      .send(body)
      .expect(422);
    expect(res.body.code).to.equal('validation_failed');
    expect(res.body.errors).to.have.keys(
      'sections.1.max_choices',
      'sections.3.options.1.starts_at',
      'sections.3.options.2.ends_at',
      'sections.0.options.0.starts_at',
    );
  });

  it('refuses wrong answers with 422 naming each section', async () => {
    const res = await vote(bob, {
      votes: { [poll.sections[0]!.id]: id(0, 0), [poll.sections[1]!.id]: id(1, 0) },
      answers: {
        [poll.sections[0]!.id]: [id(0, 0)],
        [poll.sections[2]!.id]: [id(2, 0), id(2, 0)],
        [poll.sections[3]!.id]: [id(3, 0)],
        s_unknown: [id(2, 0)],
      },
    }).expect(422);
    expect(res.body.errors).to.have.keys(
      `answers.${poll.sections[0]!.id}`,
      `votes.${poll.sections[1]!.id}`,
      `answers.${poll.sections[1]!.id}`,
      `answers.${poll.sections[2]!.id}`,
      `answers.${poll.sections[3]!.id}`,
      'answers.s_unknown',
    );
    const tooMany = await vote(bob, ballot(0, [0, 1, 2], [0], ['yes', 'yes', 'yes'])).expect(422);
    expect(tooMany.body.errors[`answers.${poll.sections[1]!.id}`][0]).to.match(/between 1 and 2/);
    const none = await vote(bob, ballot(0, [0], [], ['yes', 'yes', 'yes'])).expect(422);
    expect(none.body.errors[`answers.${poll.sections[2]!.id}`][0]).to.match(/at least one/);
    const bad = await vote(bob, {
      ...ballot(0, [0], [0], []),
      answers: { [poll.sections[3]!.id]: { x: 'maybe' } },
    });
    expect(bad.status).to.equal(422);
  });

  it('counts votes of every kind and shows each section’s results: counts, IRV rounds with Borda, meeting ranking', async () => {
    // Dinner (0 Thai, 1 Pizza, 2 Tapas): first preferences Thai 2, Pizza 2, Tapas 1; Tapas goes,
    // its ballot moves to Pizza: Pizza 3 of 5 wins in round 2.
    const first = await vote(crowd(1), ballot(0, [0, 1], [0, 1], ['yes', 'if_need_be', 'no'])).expect(201);
    expect(first.body.data.vote.answers[poll.sections[2]!.id]).to.deep.equal([id(2, 0), id(2, 1)]);
    expect(first.body.data.results[id(1, 0)]).to.equal(1);
    await vote(crowd(2), ballot(1, [1], [0], ['yes', 'yes', 'no'])).expect(201);
    await vote(crowd(3), ballot(0, [2, 0], [1, 0], ['if_need_be', 'yes', 'yes'])).expect(201);
    await vote(crowd(4), ballot(0, [0], [1], ['yes', 'if_need_be'])).expect(201);
    await vote(crowd(5), ballot(1, [1], [2, 1, 0], ['no', 'yes', 'yes'])).expect(201);
    const data = await results();
    expect(data.total_votes).to.equal(5);
    expect(data.results[id(0, 0)]).to.equal(3);
    const [multiple, ranked, meeting] = data.section_results;
    expect(multiple).to.deep.equal({
      section_id: poll.sections[1]!.id,
      kind: 'multiple',
      ballots: 5,
      counts: { [id(1, 0)]: 3, [id(1, 1)]: 3, [id(1, 2)]: 1 },
    });
    const [thai, pizza, tapas] = ids(2);
    expect(ranked.first_preferences).to.deep.equal({ [thai!]: 2, [pizza!]: 2, [tapas!]: 1 });
    expect(ranked.instant_runoff.rounds).to.deep.equal([
      {
        round: 1,
        counts: { [thai!]: 2, [pizza!]: 2, [tapas!]: 1 },
        exhausted: 0,
        continuing: 5,
        threshold: 3,
        eliminated: [tapas],
        elected: null,
        tie: null,
      },
      {
        round: 2,
        counts: { [thai!]: 2, [pizza!]: 3 },
        exhausted: 0,
        continuing: 5,
        threshold: 3,
        eliminated: [],
        elected: pizza,
        tie: null,
      },
    ]);
    expect(ranked.instant_runoff.winner).to.equal(pizza);
    // Borda, 3 options: first 2 points, second 1. Thai 2+0+1+0+0 (+2 first) = ... computed by hand:
    // ballots [T,P], [T], [P,T], [P], [Ta,P,T]: Thai 2+2+1+0+0 = 5, Pizza 1+0+2+2+1 = 6, Tapas 2.
    expect(ranked.borda).to.deep.equal([
      { option_id: pizza, score: 6, rank: 1 },
      { option_id: thai, score: 5, rank: 2 },
      { option_id: tapas, score: 2, rank: 3 },
    ]);
    // Slots: Mon yes 3, maybe 1, no 1; Tue yes 3, maybe 2, no 0; Wed yes 2, no 3.
    const [mon, tue, wed] = ids(3);
    expect(
      meeting.slots.map(
        (s: { option_id: string; yes: number; if_need_be: number; no: number; rank: number }) => [
          s.option_id,
          s.yes,
          s.if_need_be,
          s.no,
          s.rank,
        ],
      ),
    ).to.deep.equal([
      [tue, 3, 2, 0, 1],
      [mon, 3, 1, 1, 2],
      [wed, 2, 0, 3, 3],
    ]);
    expect(meeting.best).to.deep.equal([tue]);
    expect(meeting.final_option_id).to.equal(null);
  });

  it('the counters rebuilt from MongoDB give the same section results (Redis lost)', async () => {
    const before = await results();
    await h.redis.del(h.context.counters.key(poll.id));
    const after = await results();
    expect(after.section_results).to.deep.equal(before.section_results);
    expect(after.results).to.deep.equal(before.results);
  });

  it('shows a tie as a tie: equal meeting slots share rank 1, a 1-1 ranked count has no winner', async () => {
    const tie = (await h.createPoll(alice, {
      title: 'Tie',
      sections: [
        { title: 'Best', kind: 'ranked', options: [{ label: 'A' }, { label: 'B' }] },
        {
          title: 'When',
          kind: 'meeting',
          options: [
            { label: 'x', starts_at: '2027-02-01T10:00:00Z' },
            { label: 'y', starts_at: '2027-02-02T10:00:00Z' },
          ],
        },
      ],
    })) as unknown as KindsPoll;
    const [a, b] = tie.sections[0]!.options.map((o) => o.id);
    const [x, y] = tie.sections[1]!.options.map((o) => o.id);
    const cast = (voter: number, ranking: string[], slot: Record<string, string>) =>
      request(h.app)
        .post(`/api/polls/${tie.id}/vote`)
        .set('Authorization', h.auth(voter))
        .send({ answers: { [tie.sections[0]!.id]: ranking, [tie.sections[1]!.id]: slot } })
        .expect(201);
    await cast(crowd(1, 1), [a!, b!], { [x!]: 'yes' });
    await cast(crowd(2, 1), [b!, a!], { [y!]: 'yes' });
    const data = (
      await request(h.app).get(`/api/polls/${tie.id}/results`).set('Authorization', h.auth()).expect(200)
    ).body.data;
    expect(data.section_results[0].instant_runoff).to.deep.include({ winner: null, tied_winners: [a, b] });
    expect(data.section_results[1].best).to.deep.equal([x, y]);
    expect(data.section_results[1].slots.map((s: { rank: number }) => s.rank)).to.deep.equal([1, 1]);
  });

  it('the owner picks the final slot; its .ics is an iCalendar event at that slot', async () => {
    const section = poll.sections[3]!;
    const path = `/api/polls/${poll.id}/sections/${section.id}`;
    await request(h.app).get(`${path}/calendar.ics`).set('Authorization', h.auth()).expect(404);
    await request(h.app)
      .post(`${path}/final-slot`)
      .set('Authorization', h.auth(bob))
      .send({ option_id: section.options[0]!.id })
      .expect(403);
    const wrong = await request(h.app)
      .post(`${path}/final-slot`)
      .set('Authorization', h.auth(alice))
      .send({ option_id: id(2, 0) })
      .expect(422);
    expect(wrong.body.errors).to.have.key('option_id');
    await request(h.app)
      .post(`/api/polls/${poll.id}/sections/${poll.sections[2]!.id}/final-slot`)
      .set('Authorization', h.auth(alice))
      .send({ option_id: id(2, 0) })
      .expect(422);
    const picked = await request(h.app)
      .post(`${path}/final-slot`)
      .set('Authorization', h.auth(alice))
      .send({ option_id: section.options[1]!.id })
      .expect(200);
    expect(picked.body.data.sections[3].final_option_id).to.equal(section.options[1]!.id);
    const data = await results();
    expect(data.section_results[2].final_option_id).to.equal(section.options[1]!.id);
    const ics = await request(h.app)
      .get(`${path}/calendar.ics`)
      .set('Authorization', h.auth())
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
    expect(ics.status).to.equal(200);
    expect(ics.headers['content-type']).to.match(/^text\/calendar/);
    expect(ics.headers['content-disposition']).to.match(/attachment; filename="meeting-.*\.ics"/);
    const text = ics.body as string;
    expect(text).to.match(/^BEGIN:VCALENDAR\r\n/);
    expect(text).to.include('BEGIN:VEVENT');
    expect(text).to.include('DTSTART:20270105T130000Z');
    expect(text).to.include('DTEND:20270105T140000Z');
    expect(text).to.include(`UID:${poll.id}.${section.id}@fieldhouse`);
    expect(text).to.include('SUMMARY:Offsite: Kick-off call');
    await request(h.app)
      .get(`/api/polls/${poll.id}/sections/s_nope/calendar.ics`)
      .set('Authorization', h.auth())
      .expect(404);
  });

  it('a section with votes keeps its kind (422), a poll of single sections answers as before', async () => {
    const body = kindsBody();
    const sections = body.sections.map((s, i) => ({
      ...s,
      id: poll.sections[i]!.id,
      options: s.options.map((o, j) => ({ ...o, id: poll.sections[i]!.options[j]!.id })),
    }));
    sections[2] = { ...sections[2]!, kind: 'multiple' };
    const res = await request(h.app)
      .patch(`/api/polls/${poll.id}`)
      .set('Authorization', h.auth(alice))
      .send({ sections })
      .expect(422);
    expect(res.body.errors).to.have.key('sections.2.kind');
    const plain = await h.createPoll(alice);
    const counted = await request(h.app)
      .post(`/api/polls/${plain.id}/vote`)
      .set('Authorization', h.auth(bob))
      .send({ votes: Object.fromEntries(plain.sections.map((s) => [s.id, s.options[0]!.id])) })
      .expect(201);
    expect(counted.body.data.vote).to.not.have.property('answers');
    const read = (
      await request(h.app).get(`/api/polls/${plain.id}/results`).set('Authorization', h.auth()).expect(200)
    ).body.data;
    expect(read).to.not.have.property('section_results');
    expect(read.sections[0]).to.not.have.property('kind');
    const missing = await request(h.app)
      .post(`/api/polls/${plain.id}/vote`)
      .set('Authorization', h.auth(crowd(9)))
      .send({})
      .expect(422);
    expect(missing.body.errors).to.have.key('votes');
  });
});
