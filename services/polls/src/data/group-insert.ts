import type { Collection, Document, MongoBulkWriteError, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKey } from './collections.ts';

interface Waiting<T> {
  doc: T;
  resolve: (inserted: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of single-document inserts (docs/polls.md, "Votes"): documents inserted while
 * earlier writes are in flight wait and go together in one unordered `insertMany`, so a store
 * that pays per statement (FerretDB on SQLite: about 1,500 single inserts/s, 10,000 documents/s
 * in batches of 32 on the development machine) is paid once per batch. When nothing is in
 * flight a document is written at once, so a quiet server adds no delay.
 *
 * Each document still succeeds or fails on its own: a unique-key clash resolves that
 * document's promise with false (the other documents of the batch are written), any other
 * write error rejects only its document, and an error of the whole command rejects every
 * document of the batch.
 */
export class GroupInsert<T extends Document> {
  private readonly coll: Collection<T>;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private queue: Waiting<T>[] = [];
  private inFlight = 0;

  /**
   * @param maxBatch most documents in one `insertMany` (default 256).
   * @param maxInFlight most `insertMany` commands at once (default 2: one is written while
   *   the next batch fills).
   */
  constructor(coll: Collection<T>, opts: { maxBatch?: number; maxInFlight?: number } = {}) {
    this.coll = coll;
    this.maxBatch = opts.maxBatch ?? 256;
    this.maxInFlight = opts.maxInFlight ?? 2;
  }

  /** Inserts `doc`; resolves true when written, false on a unique-key clash. */
  insert(doc: T): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ doc, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async write(batch: Waiting<T>[]): Promise<void> {
    const docs = batch.map((w) => w.doc as OptionalUnlessRequiredId<T>);
    try {
      if (docs.length === 1) await this.coll.insertOne(docs[0]!);
      else await this.coll.insertMany(docs, { ordered: false });
      for (const w of batch) w.resolve(true);
    } catch (err) {
      const failed = perDocumentErrors(err, batch.length);
      if (!failed) {
        if (batch.length === 1 && isDuplicateKey(err)) batch[0]!.resolve(false);
        else for (const w of batch) w.reject(err);
        return;
      }
      batch.forEach((w, i) => {
        const e = failed.get(i);
        if (!e) w.resolve(true);
        else if (isDuplicateKey(e)) w.resolve(false);
        else w.reject(e);
      });
    }
  }
}

/** The per-document errors of an unordered `insertMany` (index to error), or null. */
function perDocumentErrors(err: unknown, size: number): Map<number, unknown> | null {
  if (size < 2) return null;
  const writeErrors = (err as Partial<MongoBulkWriteError>).writeErrors;
  if (!writeErrors) return null;
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  if (!list.length) return null;
  return new Map(list.map((e) => [e.index, e]));
}
