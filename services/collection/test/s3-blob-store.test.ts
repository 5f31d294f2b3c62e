import { Readable } from 'node:stream';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import JSZip from 'jszip';
import { PNG, testLogger } from '@fieldhouse/testkit';
import { S3BlobStore } from '../src/blob/s3-blob-store.ts';
import { runExportJob } from '../src/workers/exports.ts';
import { addMember, body, cast, makeForm, startHarness, type Harness } from './harness.ts';
import { createTestBucket, type TestBucket } from './s3.ts';

const MiB = 1024 * 1024;

/** `total` bytes in chunks of 1 MiB, each chunk filled with its index; fails after `failAfter` bytes. */
function generated(total: number, failAfter = Infinity): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= failAfter) return this.destroy(new Error('source broke'));
      if (sent >= total) return this.push(null);
      const n = Math.min(MiB, total - sent);
      this.push(Buffer.alloc(n, sent / MiB));
      sent += n;
    },
  });
}

const bytesOf = async (stream: Readable) => {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
};

describe('collection: object storage (S3BlobStore on a real S3 server, versitygw)', function () {
  this.timeout(180_000);
  let bucket: TestBucket;
  before(async () => {
    bucket = await createTestBucket();
  });
  after(async () => {
    bucket?.store.close();
    await bucket?.drop();
  });

  it('keeps an object until it is deleted, then reads it as absent', async () => {
    await bucket.store.put('photos/a.png', PNG, 'image/png');
    const got = await bucket.store.getStream('photos/a.png');
    expect(got!.size).to.equal(PNG.length);
    expect(Buffer.concat(await got!.stream.toArray())).to.deep.equal(PNG);
    await bucket.store.delete('photos/a.png');
    expect(await bucket.store.getStream('photos/a.png')).to.equal(undefined);
    expect(await bucket.keys()).to.not.include('photos/a.png');
  });

  const headers = {
    contentType: 'image/png',
    contentDisposition: 'inline',
    cacheControl: 'private, max-age=3600',
  };

  it('answers a presigned URL with the service’s headers and byte ranges', async () => {
    await bucket.store.put('photos/b.png', PNG, 'image/png');
    const url = await bucket.store.downloadUrl('photos/b.png', headers);
    const whole = await fetch(url);
    expect(whole.status).to.equal(200);
    expect(Buffer.from(await whole.arrayBuffer())).to.deep.equal(PNG);
    expect(whole.headers.get('content-type')).to.equal('image/png');
    expect(whole.headers.get('content-disposition')).to.equal('inline');
    expect(whole.headers.get('cache-control')).to.equal('private, max-age=3600');
    const part = await fetch(url, { headers: { Range: 'bytes=0-9' } });
    expect(part.status).to.equal(206);
    expect(Buffer.from(await part.arrayBuffer())).to.deep.equal(PNG.subarray(0, 10));
    expect(part.headers.get('content-range')).to.equal(`bytes 0-9/${PNG.length}`);
  });

  it('refuses a presigned URL once expired (403)', async () => {
    await bucket.store.put('photos/b.png', PNG, 'image/png');
    const shortLived = new S3BlobStore({ ...bucket.options, presignSeconds: 1 });
    const expiring = await shortLived.downloadUrl('photos/b.png', headers);
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await fetch(expiring)).status).to.equal(403);
    shortLived.close();
  });

  it('streams a large file as a multipart upload', async () => {
    const store = new S3BlobStore({ ...bucket.options, partSize: 5 * MiB });
    expect(await store.putStream('exports/big.csv', generated(12 * MiB + 3))).to.equal(12 * MiB + 3);
    const got = await store.getStream('exports/big.csv');
    expect(got!.size).to.equal(12 * MiB + 3);
    expect(await bytesOf(got!.stream)).to.equal(12 * MiB + 3);
    expect(await bucket.keys()).to.include('exports/big.csv');
    store.close();
  });

  it('leaves nothing behind of a multipart upload whose source fails', async () => {
    const store = new S3BlobStore({ ...bucket.options, partSize: 5 * MiB });
    let failed: unknown;
    await store.putStream('exports/broken.csv', generated(20 * MiB, 11 * MiB)).catch((err) => (failed = err));
    expect(failed).to.be.an('error');
    expect(await bucket.keys()).to.not.include('exports/broken.csv');
    // Nor its parts: the unfinished multipart upload was aborted.
    expect(await bucket.uploads()).to.deep.equal([]);
    store.close();
  });

  describe('through the collection API', () => {
    // alice owns the workspaces, dave views one; bob is a stranger to them.
    const { alice, bob, dave } = cast;
    let h: Harness;
    before(async () => {
      h = await startHarness(64 * 1024, bucket.store);
    });
    after(async () => h?.close());

    /** A new submission of alice's with a PNG photo; resolves with its form, id and photo entry. */
    const withPhoto = async () => {
      const form = await makeForm(h, alice);
      const sent = await h
        .as(alice)
        .post(`/api/v1/projects/${form.projectId}/submissions`)
        .send(body(form, { picture: PNG.toString('base64') }))
        .expect(201);
      const photo = sent.body.data.data.find((e: { type: string }) => e.type === 'photo').value;
      return { form, id: sent.body.data.id as number, photo };
    };

    it('redirects a photo download to a presigned URL after the access check', async () => {
      const { photo } = await withPhoto();
      await h.as(bob).get(photo.url).expect(404); // not a member: no URL given out
      const answer = await h.as(alice).get(photo.url).expect(302);
      expect(answer.headers['cache-control']).to.equal('no-store');
      const direct = await fetch(answer.headers.location!);
      expect(direct.status).to.equal(200);
      expect(direct.headers.get('content-type')).to.equal('image/png');
      expect(Buffer.from(await direct.arrayBuffer())).to.deep.equal(PNG);
    });

    it('deletes a photo from the bucket with its submission', async () => {
      const { form, id } = await withPhoto();
      const before = await bucket.keys();
      expect(before.some((k) => k.startsWith('photos/'))).to.equal(true);
      await h.as(alice).delete(`/api/v1/projects/${form.projectId}/submissions/${id}`).expect(204);
      const after = await bucket.keys();
      expect(before.filter((k) => !after.includes(k))).to.have.length(1);
    });

    it('streams an export of 100,000 rows into the bucket and serves it by presigned URL', async () => {
      const form = await makeForm(h, alice);
      const template = body(form).data;
      await h.db.raw(
        `INSERT INTO submissions (project_id, form_version_id, collector_id, status, data, search_text,
                                  created_at, updated_at, submitted_at)
         SELECT ?, ?, 1, 'submitted', ?::jsonb, 'ada', now(), now(), now() FROM generate_series(1, 100000)`,
        [form.projectId, form.versionId, JSON.stringify(template)],
      );
      const job = (
        await h
          .as(alice)
          .post(`/api/v1/projects/${form.projectId}/submissions/export`)
          .send({ format: 'csv' })
          .expect(202)
      ).body.data.job_id as string;
      const settings = { ttlHours: 1, leaseMs: 30_000, heartbeatMs: 10_000, publicUrl: 'https://x.example' };
      await runExportJob({ db: h.db, blobs: bucket.store, logger: testLogger('export'), settings }, job, {
        last: true,
        max: 3,
      });
      const done = (await h.db('exports').where({ id: job }).first()) as {
        status: string;
        rows_written: string;
      };
      expect(done.status).to.equal('completed');
      expect(Number(done.rows_written)).to.equal(100_000);
      const answer = await h.as(alice).get(`/api/v1/exports/${job}/download`).expect(302);
      const file = await fetch(answer.headers.location!);
      expect(file.status).to.equal(200);
      expect(file.headers.get('content-disposition')).to.match(
        /^attachment; filename="p-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const rows = parse(await file.text(), { columns: true, bom: true }) as Array<Record<string, string>>;
      expect(rows).to.have.length(100_000);
    });

    it('streams a media zip into the bucket, each photo read from it, and serves it by presigned URL under its name', async () => {
      const form = await makeForm(h, alice);
      await h.db('projects').where({ id: form.projectId }).update({ name: 'Puits du Sénégal' });
      const n = 12;
      for (let i = 0; i < n; i++)
        await h
          .as(alice)
          .post(`/api/v1/projects/${form.projectId}/submissions`)
          .send(body(form, { full_name: `Site ${i}`, picture: PNG.toString('base64') }))
          .expect(201);
      await h.as(alice).post(`/api/v1/projects/${form.projectId}/submissions`).send(body(form)).expect(201);
      const job = (
        await h
          .as(alice)
          .post(`/api/v1/projects/${form.projectId}/submissions/export`)
          .send({ format: 'zip' })
          .expect(202)
      ).body.data.job_id as string;
      const settings = { ttlHours: 1, leaseMs: 30_000, heartbeatMs: 10_000, publicUrl: 'https://x.example' };
      await runExportJob({ db: h.db, blobs: bucket.store, logger: testLogger('export'), settings }, job, {
        last: true,
        max: 3,
      });
      const done = await h.db('exports').where({ id: job }).first();
      expect(done).to.include({ status: 'completed', error: null });
      expect(await bucket.keys()).to.include(done.blob_key);
      const answer = await h.as(alice).get(`/api/v1/exports/${job}/download`).expect(302);
      const file = await fetch(answer.headers.location!);
      expect(file.status).to.equal(200);
      expect(file.headers.get('content-type')).to.equal('application/zip');
      const day = (done.created_at as Date).toISOString().slice(0, 10);
      expect(file.headers.get('content-disposition')).to.equal(
        `attachment; filename="puits-du-senegal-${day}.zip"; filename*=UTF-8''puits-du-s%C3%A9n%C3%A9gal-${day}.zip`,
      );
      const zip = await JSZip.loadAsync(Buffer.from(await file.arrayBuffer()));
      const media = Object.keys(zip.files).filter((k) => k.startsWith('media/'));
      expect(media).to.have.length(n);
      const rows = parse(await zip.file(`puits-du-sénégal-${day}.csv`)!.async('string'), {
        columns: true,
      }) as Array<Record<string, string>>;
      expect(rows).to.have.length(n + 1);
      expect(
        rows
          .map((r) => r.picture)
          .filter(Boolean)
          .sort(),
      ).to.deep.equal([...media].sort());
      for (const k of media) expect(await zip.file(k)!.async('nodebuffer')).to.deep.equal(PNG);
    });

    it('gives no new presigned URL of an export to its requester once removed from the workspace', async () => {
      const form = await makeForm(h, alice);
      await addMember(h, alice, form.workspaceId, dave, 'viewer');
      await h.as(alice).post(`/api/v1/projects/${form.projectId}/submissions`).send(body(form)).expect(201);
      const job = (
        await h
          .as(dave)
          .post(`/api/v1/projects/${form.projectId}/submissions/export`)
          .send({ format: 'csv' })
          .expect(202)
      ).body.data.job_id as string;
      const settings = { ttlHours: 1, leaseMs: 30_000, heartbeatMs: 10_000, publicUrl: 'https://x.example' };
      await runExportJob({ db: h.db, blobs: bucket.store, logger: testLogger('export'), settings }, job, {
        last: true,
        max: 3,
      });
      const handedOut = (await h.as(dave).get(`/api/v1/exports/${job}/download`).expect(302)).headers
        .location!;
      await h.as(alice).delete(`/api/v1/workspaces/${form.workspaceId}/members/${dave.id}`).expect(204);
      const refused = await h.as(dave).get(`/api/v1/exports/${job}/download`).expect(404);
      expect(refused.headers.location).to.equal(undefined);
      expect(refused.body).to.include({ status: 404, detail: 'Export not found.' });
      // What holds for a URL handed out before (docs/collection.md, "Object storage"): it is the
      // store's, valid S3_PRESIGN_SECONDS whoever holds it; the service cannot take it back.
      expect((await fetch(handedOut)).status).to.equal(200);
    });
  });
});
