/**
 * The replicas suite's S3 bucket, on the tests' S3 server (`S3_URL`, versitygw started by the
 * suite when unset), made by the collection tests' helper (services/collection/test/s3.ts) and
 * emptied and deleted at clean-up. Every collection replica and worker keeps photos and
 * exports there.
 */
import { createTestBucket } from '../../services/collection/test/s3.ts';
import { onCleanup } from './life.ts';

/** Creates bucket `name` and resolves with the collection service's variables to use it. */
export async function createBucket(name: string): Promise<Record<string, string>> {
  const bucket = await createTestBucket({ bucket: name });
  onCleanup(`delete bucket ${name}`, async () => {
    bucket.store.close();
    await bucket.drop();
  });
  const o = bucket.options;
  return {
    BLOB_STORE: 's3',
    S3_ENDPOINT: o.endpoint!,
    S3_BUCKET: o.bucket,
    S3_ACCESS_KEY_ID: o.accessKeyId,
    S3_SECRET_ACCESS_KEY: o.secretAccessKey,
  };
}
