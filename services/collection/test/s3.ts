import { randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { backingUrl } from '@fieldhouse/testkit';
import { S3BlobStore, type S3BlobStoreOptions } from '../src/blob/s3-blob-store.ts';

/** A fresh bucket on the tests' S3 server (`S3_URL`, versitygw started by `npm test`), and its store. */
export interface TestBucket {
  store: S3BlobStore;
  options: S3BlobStoreOptions;
  /** The keys in the bucket now (the first 1,000). */
  keys: () => Promise<string[]>;
  /** The keys of multipart uploads begun and neither completed nor aborted. */
  uploads: () => Promise<string[]>;
  /** Empties and deletes the bucket. */
  drop: () => Promise<void>;
}

/**
 * Creates a bucket (a random name unless `overrides.bucket`) and an {@link S3BlobStore} on it
 * (`overrides` tune the store); `drop` empties it, however many keys, and deletes it.
 */
export async function createTestBucket(overrides: Partial<S3BlobStoreOptions> = {}): Promise<TestBucket> {
  const url = new URL(await backingUrl('s3'));
  const options: S3BlobStoreOptions = {
    endpoint: `${url.protocol}//${url.host}`,
    region: 'us-east-1',
    bucket: `t-${randomBytes(6).toString('hex')}`,
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
    forcePathStyle: true,
    presignSeconds: 60,
    ...overrides,
  };
  const admin = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
  });
  await admin.send(new CreateBucketCommand({ Bucket: options.bucket }));
  const keys = async () =>
    ((await admin.send(new ListObjectsV2Command({ Bucket: options.bucket }))).Contents ?? []).map(
      (o) => o.Key!,
    );
  const uploads = async () =>
    ((await admin.send(new ListMultipartUploadsCommand({ Bucket: options.bucket }))).Uploads ?? []).map(
      (u) => u.Key!,
    );
  return {
    store: new S3BlobStore(options),
    options,
    keys,
    uploads,
    drop: async () => {
      for (let left = await keys(); left.length; left = await keys())
        await admin.send(
          new DeleteObjectsCommand({
            Bucket: options.bucket,
            Delete: { Objects: left.map((Key) => ({ Key })) },
          }),
        );
      await admin.send(new DeleteBucketCommand({ Bucket: options.bucket }));
      admin.destroy();
    },
  };
}
