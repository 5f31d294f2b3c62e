import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import JSZip from 'jszip';
import { eventually } from '@fieldhouse/testkit';
import {
  cast,
  PNG,
  startExportPipeline,
  publishForm,
  startHarness,
  type ExportPipeline,
  type Harness,
} from './harness.ts';

/**
 * Issue 34: photos (image fields) inside repeat instances and groups are stored like top-level
 * photos on every path (create as JSON or multipart, PUT, /sync, drafts), and the submission
 * read and exports give their URLs. The form: a top-level `cover` photo, a group `outside`
 * holding `facade` (photo), and a repeat `rooms` of at most 3 instances (room_name, room_photo).
 */
describe('collection: photos inside groups and repeat instances (issue 34)', () => {
  // alice owns the workspace, bob collects.
  const { alice, bob } = cast;
  let h: Harness;
  let pipeline: ExportPipeline;
  let projectId: number;
  let versionId: number;
  const uuid: Record<string, string> = {};
  const fields = [
    { name: 'cover', label: 'Cover', type: 'photo' },
    { name: 'outside', label: 'Outside', type: 'group' },
    { name: 'facade', label: 'Facade', type: 'photo', parent: 'outside' },
    { name: 'rooms', label: 'Rooms', type: 'repeat', max_repeats: 3 },
    { name: 'room_name', label: 'Room', type: 'text', parent: 'rooms' },
    { name: 'room_photo', label: 'Room photo', type: 'photo', parent: 'rooms' },
  ];
  const e = (name: string, value: unknown) => ({
    field_uuid: uuid[name]!,
    type: fields.find((f) => f.name === name)!.type,
    value,
  });
  const b64 = PNG.toString('base64');
  /** A stored photo's value, as the service makes it. */
  interface Ref {
    photo_id: string;
    content_type: string;
    size: number;
    url: string;
  }
  type Entry = { field_uuid: string; type: string; value: unknown };
  /** The value of the photo of room `n` (from 0) in `data`. */
  const roomPhoto = (data: Entry[], n: number): Ref =>
    ((data.find((x) => x.field_uuid === uuid.rooms)!.value as Entry[][])[n]!.find(
      (x) => x.field_uuid === uuid.room_photo,
    )!.value ?? null) as Ref;
  const topValue = (data: Entry[], name: string) => data.find((x) => x.field_uuid === uuid[name])?.value;
  /** Checks that `ref` is a stored PNG whose URL serves its bytes to bob. */
  const expectStored = async (ref: Ref) => {
    expect(ref).to.include({ content_type: 'image/png', size: PNG.length });
    expect(ref.url).to.equal(`/api/v1/photos/${ref.photo_id}`);
    const dl = await h.as(bob).get(ref.url).buffer(true).expect(200);
    expect(Buffer.compare(dl.body as Buffer, PNG)).to.equal(0);
  };
  const submissions = () => `/api/v1/projects/${projectId}/submissions`;

  before(async () => {
    h = await startHarness();
    pipeline = await startExportPipeline(h, 'collection-repeat-photos');
    const form = await publishForm(h, alice, fields, {
      names: { workspace: 'Homes', project: 'Rooms' },
      members: [[bob, 'collector']],
    });
    projectId = form.projectId;
    versionId = form.versionId;
    for (const [name, f] of Object.entries(form.fields)) uuid[name] = f.uuid;
  });
  after(async () => {
    await pipeline?.stop();
    await h?.close();
  });

  it('stores base64 photos inside repeat instances and groups, their values server-made and their URLs served', async () => {
    const r = await h
      .as(bob)
      .post(submissions())
      .send({
        form_version_id: versionId,
        data: [
          e('facade', b64),
          e('rooms', [
            [e('room_name', 'Kitchen'), e('room_photo', `data:image/png;base64,${b64}`)],
            [e('room_name', 'Hall'), e('room_photo', null)],
            [e('room_name', 'Attic'), e('room_photo', b64)],
          ]),
        ],
      });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const read = (await h.as(bob).get(`${submissions()}/${r.body.data.id}`).expect(200)).body.data
      .data as Entry[];
    await expectStored(topValue(read, 'facade') as Ref);
    await expectStored(roomPhoto(read, 0));
    expect(roomPhoto(read, 1)).to.equal(null);
    await expectStored(roomPhoto(read, 2));
    expect(roomPhoto(read, 0).photo_id).not.to.equal(roomPhoto(read, 2).photo_id);
    const rows = await h.db('photos').where({ submission_id: r.body.data.id });
    expect(rows.map((p: { field_uuid: string }) => p.field_uuid).sort()).to.deep.equal(
      [uuid.facade, uuid.room_photo, uuid.room_photo].sort(),
    );
  });

  it('takes multipart files named by their entries inside repeat instances ({"file": ...}) and by field uuid in a group', async () => {
    const body = {
      form_version_id: versionId,
      data: [
        e('rooms', [
          [e('room_name', 'Kitchen'), e('room_photo', { file: 'kitchen' })],
          [e('room_name', 'Hall'), e('room_photo', { file: 'hall' })],
        ]),
      ],
    };
    const r = await h
      .as(bob)
      .post(submissions())
      .field('submission', JSON.stringify(body))
      .attach('kitchen', PNG, { filename: 'k.bin', contentType: 'application/octet-stream' })
      .attach('hall', PNG, 'h.png')
      .attach(uuid.facade!, PNG, 'f.png')
      .attach(uuid.cover!, PNG, 'c.png');
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const data = r.body.data.data as Entry[];
    await expectStored(roomPhoto(data, 0));
    await expectStored(roomPhoto(data, 1));
    await expectStored(topValue(data, 'facade') as Ref);
    await expectStored(topValue(data, 'cover') as Ref);
  });

  it('refuses an entry naming a file part the request does not have, under its path inside the instance', async () => {
    const body = {
      form_version_id: versionId,
      data: [e('rooms', [[e('room_name', 'Kitchen'), e('room_photo', { file: 'missing' })]])],
    };
    const r = await h
      .as(bob)
      .post(submissions())
      .field('submission', JSON.stringify(body))
      .attach('other', PNG, 'o.png')
      .expect(422);
    expect(r.body.errors['data.0.value.0.1.value'][0]).to.contain('missing');
    expect(r.body.errors).to.have.property('files.other');
  });

  it("refuses a file part named by the uuid of a repeat's photo field (which instance is not said)", async () => {
    const body = { form_version_id: versionId, data: [e('rooms', [[e('room_name', 'Kitchen')]])] };
    const r = await h
      .as(bob)
      .post(submissions())
      .field('submission', JSON.stringify(body))
      .attach(uuid.room_photo!, PNG, 'r.png')
      .expect(422);
    expect(r.body.errors).to.have.property(`files.${uuid.room_photo}`);
  });

  it('refuses a photo inside a repeat instance that is not an image (422 under its path) or too large (413)', async () => {
    const notImage = await h
      .as(bob)
      .post(submissions())
      .send({
        form_version_id: versionId,
        data: [
          e('rooms', [
            [e('room_name', 'A')],
            [e('room_photo', Buffer.from('plain text').toString('base64'))],
          ]),
        ],
      })
      .expect(422);
    expect(notImage.body.errors).to.have.property('data.0.value.1.0.value');
    const big = Buffer.concat([PNG, Buffer.alloc(70 * 1024)]);
    const body = {
      form_version_id: versionId,
      data: [e('rooms', [[e('room_photo', { file: 'big' })]])],
    };
    const tooLarge = await h
      .as(bob)
      .post(submissions())
      .field('submission', JSON.stringify(body))
      .attach('big', big, 'big.png')
      .expect(413);
    expect(tooLarge.body.code).to.equal('photo_too_large');
    const bigBase64 = await h
      .as(bob)
      .post(submissions())
      .send({ form_version_id: versionId, data: [e('rooms', [[e('room_photo', big.toString('base64'))]])] })
      .expect(413);
    expect(bigBase64.body.detail).to.contain('data.0.value.0.0');
  });

  it('keeps a photo inside a repeat on an edit by its photo_id (rebuilt by the server), stores a new one, refuses a foreign id', async () => {
    const created = await h
      .as(bob)
      .post(submissions())
      .send({ form_version_id: versionId, status: 'draft', data: [e('rooms', [[e('room_photo', b64)]])] })
      .expect(201);
    const kept = roomPhoto(created.body.data.data as Entry[], 0);
    const put = await h
      .as(bob)
      .put(`${submissions()}/${created.body.data.id}`)
      .send({
        data: [
          e('rooms', [
            [e('room_photo', { photo_id: kept.photo_id, url: 'https://evil.example/x.png' })],
            [e('room_photo', b64)],
          ]),
        ],
      });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const data = put.body.data.data as Entry[];
    expect(roomPhoto(data, 0)).to.deep.equal(kept);
    await expectStored(roomPhoto(data, 1));
    expect(roomPhoto(data, 1).photo_id).not.to.equal(kept.photo_id);
    const other = await h
      .as(bob)
      .post(submissions())
      .send({ form_version_id: versionId, data: [e('cover', b64)] })
      .expect(201);
    const foreign = (topValue(other.body.data.data as Entry[], 'cover') as Ref).photo_id;
    const refused = await h
      .as(bob)
      .put(`${submissions()}/${created.body.data.id}`)
      .send({ data: [e('rooms', [[e('room_photo', { photo_id: foreign })]])] })
      .expect(422);
    expect(refused.body.errors['data.0.value.0.0.value'][0]).to.contain(foreign);
    // the draft, sent, keeps its photos
    const sent = await h
      .as(bob)
      .put(`${submissions()}/${created.body.data.id}`)
      .send({ status: 'submitted' })
      .expect(200);
    expect(roomPhoto(sent.body.data.data as Entry[], 1)).to.deep.equal(roomPhoto(data, 1));
  });

  it('refuses more instances than max_repeats under the repeat entry, storing no photo', async () => {
    const before = Number((await h.db('photos').count({ n: '*' }))[0]!.n);
    const room = (name: string) => [e('room_name', name), e('room_photo', b64)];
    const r = await h
      .as(bob)
      .post(submissions())
      .send({ form_version_id: versionId, data: [e('rooms', [room('A'), room('B'), room('C'), room('D')])] })
      .expect(422);
    expect(r.body.errors).to.have.property('data.0.value');
    expect(Number((await h.db('photos').count({ n: '*' }))[0]!.n)).to.equal(before);
  });

  it('stores the photos of repeat instances of a /sync item', async () => {
    const r = await h
      .as(bob)
      .post('/api/v1/sync')
      .send({
        device_id: 'tablet',
        submissions: [
          {
            local_id: 'home-1',
            client_updated_at: '2026-01-01T10:00:00Z',
            form_version_id: versionId,
            data: [e('facade', b64), e('rooms', [[e('room_name', 'Den'), e('room_photo', b64)]])],
          },
        ],
      })
      .expect(200);
    const [result] = r.body.data.results;
    expect(result.status, JSON.stringify(result)).to.equal('created');
    const read = (await h.as(bob).get(`${submissions()}/${result.id}`).expect(200)).body.data.data as Entry[];
    await expectStored(roomPhoto(read, 0));
    await expectStored(topValue(read, 'facade') as Ref);
  });

  it("gives the photos of repeat instances in the repeat's export table: absolute URLs in CSV, media paths and files in the zip", async () => {
    const id = (
      await h
        .as(bob)
        .post(submissions())
        .send({
          form_version_id: versionId,
          data: [e('rooms', [[e('room_name', 'Porch'), e('room_photo', b64)]])],
        })
        .expect(201)
    ).body.data;
    const ref = roomPhoto(id.data as Entry[], 0);
    const exportNow = async (format: string) => {
      const res = await h.as(alice).post(`${submissions()}/export`).send({ format, options: {} }).expect(202);
      const jobId = res.body.data.job_id as string;
      await pipeline.relay.drain();
      const job = await eventually(async () => {
        const s = await h.as(alice).get(`/api/v1/exports/${jobId}`).expect(200);
        return ['completed', 'failed'].includes(s.body.data.status) ? s.body.data : null;
      });
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      const file = await h
        .as(alice)
        .get(`/api/v1/exports/${jobId}/download`)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      return JSZip.loadAsync(file.body as Buffer);
    };
    const roomsRow = async (zip: JSZip) => {
      const name = Object.keys(zip.files).find((n) => n.endsWith('-rooms.csv'))!;
      const rows = parse(await zip.file(name)!.async('string'), { columns: true }) as Array<
        Record<string, string>
      >;
      return rows.find((row) => row.room_name === 'Porch')!;
    };
    const csvRow = await roomsRow(await exportNow('csv'));
    expect(csvRow.room_photo).to.match(new RegExp(`^https?://.+/api/v1/photos/${ref.photo_id}$`));
    const zip = await exportNow('zip');
    const zipRow = await roomsRow(zip);
    expect(zipRow.room_photo).to.equal(`media/${ref.photo_id}.png`);
    const media = await zip.file(`media/${ref.photo_id}.png`)!.async('nodebuffer');
    expect(Buffer.compare(media, PNG)).to.equal(0);
  });
});
