import type { Collection, Document, MongoBulkWriteError, OptionalUnlessRequiredId } from 'mongodb';
import { GroupCommit, type ItemResult } from '@fieldhouse/group-commit';
import { isDuplicateKey } from './collections.ts';

/**
 * Group commit of single-document inserts (docs/polls.md, "Votes"; @fieldhouse/group-commit):
 * documents inserted while earlier writes are in flight go together in one unordered
 * `insertMany`, so a store that pays per statement (FerretDB on SQLite: about 1,500 single
 * inserts/s, 10,000 documents/s in batches of 32 on the development machine) is paid once per
 * batch.
 *
 * Each document still succeeds or fails on its own: a unique-key clash resolves that
 * document's promise with false (the other documents of the batch are written), any other
 * write error rejects only its document, and an error of the whole command rejects every
 * document of the batch.
 */
export class GroupInsert<T extends Document> {
  private readonly commit: GroupCommit<T, boolean>;

  /** @param opts batch size and parallel commands ({@link GroupCommit}; defaults 256 and 2). */
  constructor(coll: Collection<T>, opts: { maxBatch?: number; maxInFlight?: number } = {}) {
    this.commit = new GroupCommit((docs) => insertAll(coll, docs), opts);
  }

  /** Inserts `doc`; resolves true when written, false on a unique-key clash. */
  insert(doc: T): Promise<boolean> {
    return this.commit.submit(doc);
  }
}

/** One unordered insert of `docs`, answered per document (false: unique-key clash). */
async function insertAll<T extends Document>(
  coll: Collection<T>,
  docs: T[],
): Promise<Array<ItemResult<boolean>>> {
  const written = docs.map((): ItemResult<boolean> => ({ ok: true, value: true }));
  try {
    const all = docs as OptionalUnlessRequiredId<T>[];
    if (all.length === 1) await coll.insertOne(all[0]!);
    else await coll.insertMany(all, { ordered: false });
    return written;
  } catch (err) {
    const failed = perDocumentErrors(err, docs.length);
    if (!failed) {
      if (docs.length === 1 && isDuplicateKey(err)) return [{ ok: true, value: false }];
      throw err;
    }
    return written.map((ok, i) => {
      const e = failed.get(i);
      if (!e) return ok;
      return isDuplicateKey(e) ? { ok: true, value: false } : { ok: false, error: e };
    });
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
