import { readdir } from 'node:fs/promises';
import { expect } from 'chai';
import { testLogger } from '@fieldhouse/testkit';
import { FileBlobStore } from '../src/blob/blob-store.ts';
import { inTransactionWith } from '@fieldhouse/messaging';
import { photoTransaction, storePhotos } from '../src/domain/photo-store.ts';
import { startHarness, type Harness } from './harness.ts';

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

describe('collection: photos of a rolled-back submission (real PostgreSQL, file blob store)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h?.close();
  });

  const photo = (id: string) => ({
    id,
    field_uuid: '00000000-0000-4000-8000-000000000001',
    content_type: 'image/png',
    size: 4,
    blob_key: `photos/${id}`,
    bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  });

  it('deletes the bytes written when the transaction fails after them', async () => {
    // The real file store, recording what it was given to write.
    const written: string[] = [];
    const blobs = new FileBlobStore(h.blobDir);
    const put = blobs.put.bind(blobs);
    blobs.put = async (key: string, bytes: Buffer) => {
      await put(key, bytes);
      written.push(key);
    };
    const ctx = { inTransaction: inTransactionWith(h.db, 'outbox'), blobs, logger: testLogger('collection') };
    const photos = [
      photo('11111111-1111-4111-8111-111111111111'),
      photo('22222222-2222-4222-8222-222222222222'),
    ];
    // No submission 987654321: the photo rows break their foreign key after both files are written.
    const failed = await photoTransaction(ctx, photos, (trx) =>
      storePhotos(ctx, trx, 987_654_321, photos),
    ).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).to.be.instanceOf(Error);
    expect(String((failed as Error).message)).to.match(/foreign key/);
    expect(written.sort()).to.deep.equal(photos.map((p) => p.blob_key).sort()); // both were on disk
    expect(await filesUnder(h.blobDir)).to.deep.equal([]); // and are gone
    const rows = await h.db('photos').count({ n: '*' }).first();
    expect(Number(rows?.n)).to.equal(0);
  });
});
