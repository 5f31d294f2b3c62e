import { expect } from 'chai';
import request from 'supertest';
import { alice, pollBody, startHarness, type PollsHarness } from './harness.ts';

describe('poll setting embed_origins (API, real MongoDB/FerretDB and Redis)', () => {
  let h: PollsHarness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.stop();
  });

  const create = (settings: object) =>
    request(h.app).post('/api/polls').set('Authorization', h.auth(alice)).send(pollBody(settings));

  it('is empty by default: no other site may frame the poll', async () => {
    const poll = await h.createPoll(alice);
    expect(
      (poll as unknown as { settings: { embed_origins: string[] } }).settings.embed_origins,
    ).to.deep.equal([]);
  });

  it('keeps each origin as the URL standard writes it: lower case, no default port, no slash, once', async () => {
    const res = await create({
      embed_origins: [
        'HTTPS://News.Example.org:443/',
        'https://blog.example.com:8443',
        'http://localhost:5173',
        'https://news.example.org',
      ],
    }).expect(201);
    expect(res.body.data.settings.embed_origins).to.deep.equal([
      'https://news.example.org',
      'https://blog.example.com:8443',
      'http://localhost:5173',
    ]);
    const read = await request(h.app)
      .get(`/api/polls/${res.body.data.id}`)
      .set('Authorization', h.auth())
      .expect(200);
    expect(read.body.data.settings.embed_origins).to.deep.equal(res.body.data.settings.embed_origins);
  });

  it('refuses with 422 each entry that is not an https origin, naming and quoting it', async () => {
    const res = await create({
      embed_origins: [
        'https://ok.example.org',
        'http://news.example.org',
        'https://news.example.org/polls',
        'news.example.org',
        'https://*.example.org',
        'https://user@example.org',
        "https://example.org'; script-src *",
      ],
    }).expect(422);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body.code).to.equal('validation_failed');
    expect(Object.keys(res.body.errors).sort()).to.deep.equal(
      [1, 2, 3, 4, 5, 6].map((i) => `settings.embed_origins.${i}`).sort(),
    );
    expect(res.body.errors['settings.embed_origins.1'][0]).to.include('"http://news.example.org"');
    expect(res.body.errors['settings.embed_origins.2'][0]).to.include('https://www.example.org');
  });

  it('refuses more than 20 origins and entries that are not strings, naming the field', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://site${i}.example.org`);
    const res = await create({ embed_origins: many }).expect(422);
    expect(Object.keys(res.body.errors)[0]).to.match(/^settings\.embed_origins/);
    const wrong = await create({ embed_origins: [42] }).expect(422);
    expect(Object.keys(wrong.body.errors)[0]).to.equal('settings.embed_origins.0');
  });

  it('is replaced as a whole by an update, and kept by an update without it; a bad update changes nothing', async () => {
    const poll = (await create({ embed_origins: ['https://a.example.org'] }).expect(201)).body.data;
    const patch = (settings: object) =>
      request(h.app).patch(`/api/polls/${poll.id}`).set('Authorization', h.auth(alice)).send({ settings });
    expect(
      (await patch({ embed_origins: ['https://b.example.org'] }).expect(200)).body.data.settings
        .embed_origins,
    ).to.deep.equal(['https://b.example.org']);
    expect(
      (await patch({ allow_comments: false }).expect(200)).body.data.settings.embed_origins,
    ).to.deep.equal(['https://b.example.org']);
    await patch({ embed_origins: ['javascript:alert(1)'] }).expect(422);
    const read = await request(h.app).get(`/api/polls/${poll.id}`).set('Authorization', h.auth()).expect(200);
    expect(read.body.data.settings.embed_origins).to.deep.equal(['https://b.example.org']);
    expect((await patch({ embed_origins: [] }).expect(200)).body.data.settings.embed_origins).to.deep.equal(
      [],
    );
  });
});
