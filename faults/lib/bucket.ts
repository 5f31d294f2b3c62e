/**
 * The replicas suite's S3 bucket: created on the tests' S3 server (`S3_URL`,
 * `http://<access key>:<secret>@host:port`, versitygw started by the suite when unset), emptied
 * and deleted at clean-up. Every collection replica and worker keeps photos and exports there.
 */
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { onCleanup } from './life.ts';

/** Creates bucket `name` and resolves with the collection service's variables to use it. */
export async function createBucket(s3Url: string, name: string): Promise<Record<string, string>> {
  const url = new URL(s3Url);
  const endpoint = `${url.protocol}//${url.host}`;
  const credentials = {
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
  const admin = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  await admin.send(new CreateBucketCommand({ Bucket: name }));
  onCleanup(`delete bucket ${name}`, async () => {
    for (;;) {
      const listed = await admin.send(new ListObjectsV2Command({ Bucket: name }));
      const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (!keys.length) break;
      await admin.send(new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: keys } }));
    }
    await admin.send(new DeleteBucketCommand({ Bucket: name }));
    admin.destroy();
  });
  return {
    BLOB_STORE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: name,
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
}
