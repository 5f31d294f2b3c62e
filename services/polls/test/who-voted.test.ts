import { expect } from 'chai';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { eventually } from '@fieldhouse/testkit';
import {
  alice,
  bob,
  carol,
  dave,
  listenOn,
  pollBody,
  startHarness,
  viewResults,
  votesFor,
  type PollBody,
  type PollsHarness,
} from './harness.ts';

/** Reads a binary answer (supertest) as a Buffer. */
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

interface Participant {
  vote_id: string;
  voter_name: string | null;
  user_id: number | null;
  seq: number;
  created_at: string;
  verified: boolean;
  votes: Record<string, string>;
  answers: Record<string, unknown>;
}

/**
 * Who voted (issue 37, part 3; docs/polls.md, "Who voted"): the owner's participants grid and
 * exports, a voter's own ballot, comments hidden by the owner and pushed live, ties in the
 * leading options. Real MongoDB/FerretDB and Redis.
 */
describe('who voted: participants, exports, my ballot, comment moderation (real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  const vote = (poll: PollBody, auth: string, body: object) =>
    request(h.app).post(`/api/polls/${poll.id}/vote`).set('Authorization', auth).send(body);

  describe('participants grid', () => {
    let poll: PollBody;
    before(async () => {
      poll = await h.createPoll(
        alice,
        pollBody({ results_visibility: 'owner_only', show_participant_names: false }),
      );
      await vote(poll, h.auth(bob), { votes: votesFor(poll, [0, 1, 0]), voter_name: 'Bob B.' }).expect(201);
      await vote(poll, h.auth(carol), { votes: votesFor(poll, [1, 0, 1]) }).expect(201);
      await vote(poll, h.auth(undefined, '10.9.9.9'), {
        votes: votesFor(poll, [2, 0, 0]),
        voter_fingerprint: 'anon-fingerprint-1',
        voter_name: 'Guest',
      }).expect(201);
    });

    it('the owner gets every counted vote, newest first, with name, time and choices, whatever the visibility', async () => {
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/participants`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      const rows = res.body.data as Participant[];
      expect(rows.map((r) => r.voter_name)).to.deep.equal(['Guest', `User ${carol}`, 'Bob B.']);
      expect(rows.map((r) => r.user_id)).to.deep.equal([null, carol, bob]);
      expect(rows[2]!.votes).to.deep.equal(votesFor(poll, [0, 1, 0]));
      expect(rows[0]!).to.include({ seq: 1, verified: false, choices_hidden: false });
      expect(Date.parse(rows[0]!.created_at)).to.be.at.least(Date.parse(rows[2]!.created_at));
      expect(res.body.pagination).to.include({ total: 3, current_page: 1 });
    });

    it('is paginated', async () => {
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/participants?per_page=2&page=2`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      expect(res.body.data).to.have.length(1);
      expect(res.body.data[0].voter_name).to.equal('Bob B.');
      expect(res.body.pagination).to.include({ total: 3, per_page: 2, current_page: 2, last_page: 2 });
      const bad = await request(h.app)
        .get(`/api/polls/${poll.id}/participants?per_page=500`)
        .set('Authorization', h.auth(alice))
        .expect(422);
      expect(bad.body.errors).to.have.property('per_page');
    });

    it('is the owner’s only: 403 for a voter, 401 signed out, 404 unknown poll', async () => {
      const other = await request(h.app)
        .get(`/api/polls/${poll.id}/participants`)
        .set('Authorization', h.auth(bob))
        .expect(403);
      expect(other.body.code).to.equal('forbidden');
      await request(h.app)
        .get(`/api/polls/${poll.id}/participants`)
        .set('Authorization', h.auth())
        .expect(401);
      await request(h.app)
        .get('/api/polls/00000000-0000-4000-8000-000000000000/participants')
        .set('Authorization', h.auth(alice))
        .expect(404);
    });
  });

  it('an anonymous poll: rows without id nor choices, no votes export (its results export stays)', async () => {
    const poll = await h.createPoll(alice, pollBody({ voters: 'invited', anonymous: true }));
    // A ballot as an anonymous poll stores it (docs/polls.md, "Anonymous but verified"): no voter.
    const ballotId = 'b-receipt-1';
    await h.db.collection('votes').insertOne({
      _id: ballotId,
      poll_id: poll.id,
      voter_key: `b:${ballotId}`,
      seq: 1,
      choices: votesFor(poll, [1, 0, 1]),
      option_ids: [],
      voter_name: null,
      time_spent: null,
      user_id: null,
      hour: '2026-11-29T06:00:00Z',
      created_at: '2026-11-29T06:00:00.000Z',
    } as never);
    const res = await request(h.app)
      .get(`/api/polls/${poll.id}/participants`)
      .set('Authorization', h.auth(alice))
      .expect(200);
    expect(res.body.data).to.deep.equal([
      {
        vote_id: null,
        voter_name: null,
        user_id: null,
        seq: 1,
        created_at: '2026-11-29T06:00:00.000Z',
        time_spent: null,
        verified: false,
        votes: {},
        answers: {},
        choices_hidden: true,
      },
    ]);
    expect(JSON.stringify(res.body)).to.not.contain(ballotId);
    const refused = await request(h.app)
      .get(`/api/polls/${poll.id}/export?content=votes`)
      .set('Authorization', h.auth(alice))
      .expect(422);
    expect(refused.body.errors).to.have.property('content');
    await request(h.app)
      .get(`/api/polls/${poll.id}/export?content=results`)
      .set('Authorization', h.auth(alice))
      .expect(200);
  });

  describe('exports', () => {
    let poll: PollBody;
    before(async () => {
      poll = await h.createPoll(alice, {
        title: 'Offsite: where?',
        sections: [
          { title: 'City', options: [{ label: 'Lyon' }, { label: '=Nantes' }, { label: 'Lille' }] },
          {
            title: 'Dinner',
            kind: 'ranked',
            options: [{ label: 'Thai' }, { label: 'Pizza' }, { label: 'Tapas' }],
          },
        ],
      });
      const [city, dinner] = poll.sections;
      const o = (s: typeof city, i: number) => s!.options[i]!.id;
      await vote(poll, h.auth(bob), {
        votes: { [city!.id]: o(city, 0) },
        answers: { [dinner!.id]: [o(dinner, 1), o(dinner, 0)] },
        voter_name: '=HYPERLINK("http://evil")',
      }).expect(201);
      await vote(poll, h.auth(carol), {
        votes: { [city!.id]: o(city, 1) },
        answers: { [dinner!.id]: [o(dinner, 0), o(dinner, 1)] },
        voter_name: 'Carol',
      }).expect(201);
    });

    it('votes as CSV: one row per vote, labels per section, formulas neutralised', async () => {
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/export?content=votes&format=csv`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      expect(res.headers['content-type']).to.match(/^text\/csv/);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="offsite-where-votes.csv"');
      expect(res.text.startsWith('\uFEFF'), 'a byte-order mark, for spreadsheets').to.equal(true);
      const lines = res.text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n');
      expect(lines[0]).to.equal('vote_id,created_at,voter_name,user_id,seq,verified,time_spent,City,Dinner');
      expect(lines).to.have.length(3);
      expect(lines[1]).to.contain(`,"'=HYPERLINK(""http://evil"")",${bob},1,no,,Lyon,Pizza > Thai`);
      expect(lines[2]).to.contain(`,Carol,${carol},1,no,,'=Nantes,Thai > Pizza`);
    });

    it('results as CSV: a 1–1 tie shares the rank; the ranked section names the tie, not a winner', async () => {
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/export?content=results&format=csv`)
        .set('Authorization', h.auth(alice))
        .expect(200);
      const lines = res.text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n');
      expect(lines[0]).to.equal('section,kind,option,votes,percent,rank,borda_score,outcome,if_need_be,no');
      expect(lines.slice(1)).to.deep.equal([
        'City,single,Lyon,1,50,1,,,,',
        "City,single,'=Nantes,1,50,1,,,,",
        'City,single,Lille,0,0,3,,,,',
        'Dinner,ranked,Thai,1,50,1,3,tied,,',
        'Dinner,ranked,Pizza,1,50,1,3,tied,,',
        'Dinner,ranked,Tapas,0,0,3,0,,,',
      ]);
    });

    it('votes as XLSX: a real workbook, text as inline strings (never formulas)', async () => {
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/export?content=votes&format=xlsx`)
        .set('Authorization', h.auth(alice))
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename="offsite-where-votes.xlsx"');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.body as never);
      const sheet = book.getWorksheet('Votes')!;
      const text = (row: number, col: number) => sheet.getRow(row).getCell(col).text;
      expect(text(1, 8)).to.equal('City');
      expect(sheet.rowCount).to.equal(3);
      expect(text(2, 3)).to.equal('=HYPERLINK("http://evil")');
      expect(sheet.getRow(2).getCell(3).formula).to.equal(undefined);
      expect(text(2, 9)).to.equal('Pizza > Thai');
      expect(sheet.getRow(3).getCell(4).value).to.equal(carol);
      expect(sheet.getRow(2).getCell(3).type).to.equal(ExcelJS.ValueType.RichText);
    });

    it('results as XLSX, and only for the owner; bad content or format is 422', async () => {
      const res = await request(h.app)
        .get(`/api/polls/${poll.id}/export?content=results&format=xlsx`)
        .set('Authorization', h.auth(alice))
        .buffer(true)
        .parse(binary)
        .expect(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.body as never);
      expect(book.getWorksheet('Results')!.getRow(2).getCell(4).value).to.equal(1);
      await request(h.app).get(`/api/polls/${poll.id}/export`).set('Authorization', h.auth(bob)).expect(403);
      await request(h.app).get(`/api/polls/${poll.id}/export`).set('Authorization', h.auth()).expect(401);
      const bad = await request(h.app)
        .get(`/api/polls/${poll.id}/export?format=pdf`)
        .set('Authorization', h.auth(alice))
        .expect(422);
      expect(bad.body.errors).to.have.property('format');
    });
  });

  describe('my ballot', () => {
    it('a signed-in voter: nothing before, their vote and no votes left after', async () => {
      const poll = await h.createPoll(alice);
      const before = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', h.auth(bob))
        .expect(200);
      expect(before.body.data).to.deep.include({
        voted: false,
        votes: [],
        remaining_votes: 1,
        identified: true,
      });
      await vote(poll, h.auth(bob), { votes: votesFor(poll, [1, 1, 1]), voter_name: 'Bob' }).expect(201);
      const after = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', h.auth(bob))
        .expect(200);
      expect(after.body.data).to.deep.include({ voted: true, remaining_votes: 0, max_votes_per_voter: 1 });
      expect(after.body.data.votes[0]).to.deep.include({
        votes: votesFor(poll, [1, 1, 1]),
        voter_name: 'Bob',
        status: 'counted',
      });
      const other = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', h.auth(carol))
        .expect(200);
      expect(other.body.data.voted).to.equal(false);
    });

    it('a browser-traits fingerprint (b:, a framed embed without storage): whether it voted, never what it chose', async () => {
      const poll = await h.createPoll(alice);
      const framed = h.auth(undefined, '10.1.2.9');
      await vote(poll, framed, {
        votes: votesFor(poll, [2, 0, 1]),
        voter_fingerprint: 'b:0123456789abcdef',
        voter_name: 'Framed reader',
      }).expect(201);
      const mine = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot?voter_fingerprint=b:0123456789abcdef`)
        .set('Authorization', framed)
        .expect(200);
      expect(mine.body.data).to.deep.include({ voted: true, remaining_votes: 0, votes: [] });
      expect(JSON.stringify(mine.body)).to.not.contain('Framed reader');
    });

    it('an anonymous voter by fingerprint (query or header) and IP; without fingerprint nothing is theirs', async () => {
      const poll = await h.createPoll(alice, pollBody({ max_votes_per_voter: 2 }));
      const anon = h.auth(undefined, '10.1.2.3');
      await vote(poll, anon, { votes: votesFor(poll), voter_fingerprint: 'fp-anonymous-42' }).expect(201);
      const byQuery = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot?voter_fingerprint=fp-anonymous-42`)
        .set('Authorization', anon)
        .expect(200);
      expect(byQuery.body.data).to.deep.include({ voted: true, remaining_votes: 1, max_votes_per_voter: 2 });
      const byHeader = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', anon)
        .set('X-Voter-Fingerprint', 'fp-anonymous-42')
        .expect(200);
      expect(byHeader.body.data.votes).to.have.length(1);
      const otherIp = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot?voter_fingerprint=fp-anonymous-42`)
        .set('Authorization', h.auth(undefined, '10.1.2.4'))
        .expect(200);
      expect(otherIp.body.data.voted).to.equal(false);
      const none = await request(h.app)
        .get(`/api/polls/${poll.id}/my-ballot`)
        .set('Authorization', anon)
        .expect(200);
      expect(none.body.data).to.deep.include({ voted: false, identified: false, remaining_votes: 2 });
      await request(h.app)
        .get('/api/polls/00000000-0000-4000-8000-000000000000/my-ballot')
        .set('Authorization', anon)
        .expect(404);
    });
  });

  describe('comments: hidden by the owner, pushed live', () => {
    const comment = (poll: PollBody, userId: number, content: string, parent_id: string | null = null) =>
      request(h.app)
        .post(`/api/polls/${poll.id}/comment`)
        .set('Authorization', h.auth(userId))
        .send({ content, parent_id })
        .expect(201);
    const list = async (poll: PollBody, userId: number) =>
      (
        await request(h.app)
          .get(`/api/polls/${poll.id}/comments`)
          .set('Authorization', h.auth(userId))
          .expect(200)
      ).body;
    const results = async (poll: PollBody) =>
      (
        await request(h.app)
          .get(`/api/polls/${poll.id}/results`)
          .set('Authorization', h.auth(carol))
          .expect(200)
      ).body.data;
    const moderate = (poll: PollBody, userId: number, commentId: string, hidden: unknown) =>
      request(h.app)
        .patch(`/api/polls/${poll.id}/comments/${commentId}`)
        .set('Authorization', h.auth(userId))
        .send({ hidden });

    it('a hidden comment and its replies leave the list, recent comments and the total for all but the owner', async () => {
      const poll = await h.createPoll(alice);
      const kept = (await comment(poll, bob, 'Pizza, obviously')).body.data;
      const rude = (await comment(poll, dave, 'Something rude')).body.data;
      await comment(poll, carol, 'A reply to it', rude.id);
      expect((await results(poll)).comments_total).to.equal(3);

      const hid = await moderate(poll, alice, rude.id, true).expect(200);
      expect(hid.body.data).to.include({ id: rude.id, hidden: true });
      const others = await list(poll, bob);
      expect(others.data.map((c: { id: string }) => c.id)).to.deep.equal([kept.id]);
      expect(others.pagination.total).to.equal(1);
      const r = await results(poll);
      expect(r.comments_total).to.equal(1);
      expect(r.recent_comments.map((c: { id: string }) => c.id)).to.deep.equal([kept.id]);
      const owner = await list(poll, alice);
      const hiddenThread = owner.data.find((c: { id: string }) => c.id === rude.id);
      expect(hiddenThread).to.include({ hidden: true });
      expect(hiddenThread.replies[0]).to.include({ hidden: true, content: 'A reply to it' });

      const reply = await request(h.app)
        .post(`/api/polls/${poll.id}/comment`)
        .set('Authorization', h.auth(bob))
        .send({ content: 'me too', parent_id: rude.id })
        .expect(422);
      expect(reply.body.errors).to.have.property('parent_id');

      // The counters rebuilt from MongoDB (Redis lost them) count visible comments only, too.
      await h.redis.del(h.context.counters.key(poll.id));
      expect((await results(poll)).comments_total).to.equal(1);

      await moderate(poll, alice, rude.id, false).expect(200);
      expect((await list(poll, bob)).pagination.total).to.equal(2);
      expect((await results(poll)).comments_total).to.equal(3);
    });

    it('only the owner hides (403 for the author or others, 401 signed out, 422 without `hidden`); the owner deletes', async () => {
      const poll = await h.createPoll(alice);
      const c = (await comment(poll, bob, 'Hello')).body.data;
      expect((await moderate(poll, bob, c.id, true).expect(403)).body.code).to.equal('forbidden');
      await request(h.app)
        .patch(`/api/polls/${poll.id}/comments/${c.id}`)
        .set('Authorization', h.auth())
        .send({ hidden: true })
        .expect(401);
      expect((await moderate(poll, alice, c.id, 'yes').expect(422)).body.errors).to.have.property('hidden');
      await moderate(poll, alice, 'no-such-comment', true).expect(404);
      await moderate(poll, alice, c.id, true).expect(200);
      await request(h.app)
        .delete(`/api/polls/${poll.id}/comments/${c.id}`)
        .set('Authorization', h.auth(alice))
        .expect(204);
      expect((await list(poll, alice)).data).to.deep.equal([]);
      expect((await results(poll)).comments_total).to.equal(0);
    });

    it('a new comment and a hidden one reach an open live-results stream at once', async () => {
      const poll = await h.createPoll(alice);
      const listening = await listenOn(h.app);
      const view = await viewResults<{ comments_total: number; recent_comments: Array<{ content: string }> }>(
        listening.base,
        `/api/polls/${poll.id}/results/stream`,
        h.auth(carol),
      );
      try {
        await eventually(async () => view.events.length >= 1, 10_000);
        const c = (await comment(poll, bob, 'Live one')).body.data;
        await eventually(async () => view.events.at(-1)?.comments_total === 1, 5_000);
        expect(view.events.at(-1)!.recent_comments[0]!.content).to.equal('Live one');
        await moderate(poll, alice, c.id, true).expect(200);
        await eventually(async () => view.events.at(-1)?.comments_total === 0, 5_000);
        expect(view.events.at(-1)!.recent_comments).to.deep.equal([]);
      } finally {
        view.res.destroy();
        await listening.close();
      }
    });
  });

  it('leading options: a 1–1 tie names every tied option (tied_option_ids), not one winner', async () => {
    const poll = await h.createPoll(alice);
    await vote(poll, h.auth(bob), { votes: votesFor(poll, [0, 0, 0]) }).expect(201);
    await vote(poll, h.auth(carol), { votes: votesFor(poll, [1, 0, 0]) }).expect(201);
    const r = await request(h.app)
      .get(`/api/polls/${poll.id}/results`)
      .set('Authorization', h.auth(bob))
      .expect(200);
    const [place, day] = r.body.data.analytics.top_options;
    expect(place.tied_option_ids).to.deep.equal([
      poll.sections[0]!.options[0]!.id,
      poll.sections[0]!.options[1]!.id,
    ]);
    expect(day).to.include({ option_id: poll.sections[1]!.options[0]!.id, votes: 2 });
    expect(day.tied_option_ids).to.deep.equal([]);
  });
});
