import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile, rename, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where photos (and later export files) are kept (design.md, "Storage choices"): a key-value
 * store of bytes, so an S3 implementation can replace the filesystem one.
 */
export interface BlobStore {
  /** Stores `bytes` under `key` (slash-separated, no `..`), replacing any previous value. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Stores what `source` yields under `key` without holding it in memory (export files);
   * nothing is visible under `key` unless the whole stream was written. Resolves with the size.
   */
  putStream(key: string, source: Readable): Promise<number>;
  /** A stream of the bytes under `key` with their size, or undefined when absent. */
  getStream(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /**
   * Where a client may download `key` itself for a short while (a presigned URL of object
   * storage, answering with `download`'s headers), once the service checked its access; absent
   * or undefined: the service streams the bytes.
   */
  downloadUrl?(key: string, download: BlobDownload): Promise<string | undefined>;
}

/** The headers a direct download answers with (the ones the service would have sent). */
export interface BlobDownload {
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
}

/** A {@link BlobStore} on the local filesystem under `root` (the `BLOB_DIR` setting). */
export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    if (!/^[A-Za-z0-9._/-]+$/.test(key) || key.split('/').some((p) => p === '..' || p === ''))
      throw new Error(`invalid blob key: ${key}`);
    const p = resolve(join(this.root, key));
    if (!p.startsWith(this.root + sep)) throw new Error(`invalid blob key: ${key}`);
    return p;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, p); // readers never see a half-written file
  }

  async putStream(key: string, source: Readable): Promise<number> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await pipeline(source, createWriteStream(tmp));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await rename(tmp, p);
    return (await stat(p)).size;
  }

  async getStream(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const p = this.path(key);
    try {
      const { size } = await stat(p);
      return { stream: createReadStream(p), size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
