import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobDownload, BlobStore } from './blob-store.ts';

/** Where and how to reach the bucket (docs/collection.md, "Object storage"). */
export interface S3BlobStoreOptions {
  /** Endpoint of an S3-compatible server (`http://127.0.0.1:7070`); absent: AWS S3 of `region`. */
  endpoint?: string;
  /**
   * Endpoint clients download from, when they reach the store by another address than the
   * service (a public name in front of a private endpoint); presigned URLs are signed for it.
   */
  publicEndpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (`endpoint/bucket/key`), needed by most S3-compatible servers. */
  forcePathStyle: boolean;
  /** Lifetime of a presigned download URL, seconds. */
  presignSeconds: number;
  /** Size of each part of a streamed (multipart) upload, bytes; at least 5 MiB. */
  partSize?: number;
}

const isNoSuchKey = (err: unknown) =>
  err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404);

/**
 * A {@link BlobStore} on S3-compatible object storage (AWS SDK v3): photos with one
 * `PutObject`, export files streamed as multipart uploads (`@aws-sdk/lib-storage`, parts of
 * `partSize` held in memory one or two at a time, so an export is never whole in memory nor on
 * local disk; nothing is visible under the key unless the upload completed), reads as streams,
 * and downloads answered with a short-lived presigned URL (`presignSeconds`) carrying the
 * headers the service would have sent. Keys are those of the filesystem store.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly signer: S3Client;
  private readonly o: S3BlobStoreOptions;

  constructor(o: S3BlobStoreOptions) {
    this.o = o;
    const client = (endpoint: string | undefined) =>
      new S3Client({
        region: o.region,
        ...(endpoint ? { endpoint } : {}),
        forcePathStyle: o.forcePathStyle,
        credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
      });
    this.client = client(o.endpoint);
    this.signer = o.publicEndpoint ? client(o.publicEndpoint) : this.client;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.o.bucket, Key: key, Body: bytes, ContentType: contentType }),
    );
  }

  async putStream(key: string, source: Readable): Promise<number> {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const piped = pipeline(source, counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.o.bucket, Key: key, Body: counted },
      partSize: this.o.partSize ?? 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      counted.destroy(err as Error); // stops the source too: nothing is left reading
      await piped.catch(() => undefined);
      throw err;
    }
    await piped;
    return size;
  }

  async getStream(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.o.bucket, Key: key }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (err) {
      if (isNoSuchKey(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.o.bucket, Key: key }));
  }

  async downloadUrl(key: string, download: BlobDownload): Promise<string> {
    return getSignedUrl(
      this.signer,
      new GetObjectCommand({
        Bucket: this.o.bucket,
        Key: key,
        ResponseContentType: download.contentType,
        ResponseContentDisposition: download.contentDisposition,
        ResponseCacheControl: download.cacheControl,
      }),
      { expiresIn: this.o.presignSeconds },
    );
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
