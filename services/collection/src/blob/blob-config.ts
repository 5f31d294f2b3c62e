import { Joi, urlOf } from '@fieldhouse/config';
import { FileBlobStore, type BlobStore } from './blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** Where photos and export files are kept (docs/collection.md, "Object storage"). */
export interface BlobVars {
  /** `local` (a folder, one machine; the default) or `s3` (S3-compatible object storage). */
  BLOB_STORE: 'local' | 's3';
  /** Folder of the local store. */
  BLOB_DIR: string;
  /** S3 endpoint (`http://minio:9000`); empty for AWS S3 of `S3_REGION`. */
  S3_ENDPOINT: string;
  /** Endpoint the clients download from when not `S3_ENDPOINT` (presigned URLs are signed for it). */
  S3_PUBLIC_ENDPOINT: string;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  /** Path-style URLs, which most S3-compatible servers need; default true. */
  S3_FORCE_PATH_STYLE: boolean;
  /** Lifetime of a presigned download URL, seconds; default 300. */
  S3_PRESIGN_SECONDS: number;
}

const whenS3 = (schema: Joi.StringSchema) =>
  Joi.when('BLOB_STORE', { is: 's3', then: schema.required(), otherwise: schema.allow('').default('') });

/** Joi keys of {@link BlobVars}, spread into the API's and the worker's configuration schemas. */
export const blobEnv = {
  BLOB_STORE: Joi.string().valid('local', 's3').default('local'),
  BLOB_DIR: Joi.string().default('.local/blobs/collection'),
  S3_ENDPOINT: urlOf('http', 'https').allow('').default(''),
  S3_PUBLIC_ENDPOINT: urlOf('http', 'https').allow('').default(''),
  S3_REGION: Joi.string().default('us-east-1'),
  S3_BUCKET: whenS3(Joi.string().min(3).max(63)),
  S3_ACCESS_KEY_ID: whenS3(Joi.string()),
  S3_SECRET_ACCESS_KEY: whenS3(Joi.string()),
  S3_FORCE_PATH_STYLE: Joi.boolean().default(true),
  S3_PRESIGN_SECONDS: Joi.number()
    .integer()
    .min(10)
    .max(7 * 86_400)
    .default(300),
};

/** The blob store {@link BlobVars} name. */
export function blobStoreFrom(v: BlobVars): BlobStore & { close?: () => void } {
  if (v.BLOB_STORE === 'local') return new FileBlobStore(v.BLOB_DIR);
  return new S3BlobStore({
    ...(v.S3_ENDPOINT ? { endpoint: v.S3_ENDPOINT } : {}),
    ...(v.S3_PUBLIC_ENDPOINT ? { publicEndpoint: v.S3_PUBLIC_ENDPOINT } : {}),
    region: v.S3_REGION,
    bucket: v.S3_BUCKET,
    accessKeyId: v.S3_ACCESS_KEY_ID,
    secretAccessKey: v.S3_SECRET_ACCESS_KEY,
    forcePathStyle: v.S3_FORCE_PATH_STYLE,
    presignSeconds: v.S3_PRESIGN_SECONDS,
  });
}
