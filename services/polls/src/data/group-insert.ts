import type { Collection, Document, MongoBulkWriteError, OptionalUnlessRequiredId } from 'mongodb';
import type { BatchWriter, ItemResult } from '@fieldhouse/group-commit';
import { isDuplicateKey } from './collections.ts';

/**
 * The batch writer of a group commit of single-document inserts (docs/polls.md, "Votes";
 * @fieldhouse/group-commit): the documents that waited go together in one unordered
 * `insertMany`, so a store that pays per statement (FerretDB on SQLite: about 1,500 single
 * inserts/s, 10,000 documents/s in batches of 32 on the development machine) is paid once per
 * batch.
 *
 * Each document still succeeds or fails on its own: a unique-key clash answers that document
 * false (the others of the batch are written), any other write error fails only its document,
 * and an error of the whole command fails every document of the batch.
 */
export function unorderedInsert<T extends Document>(coll: Collection<T>): BatchWriter<T, boolean> {
  return async (docs) => {
    const written = docs.map((): ItemResult<boolean> => ({ ok: true, value: true }));
    try {
      await coll.insertMany(docs as OptionalUnlessRequiredId<T>[], { ordered: false });
      return written;
    } catch (err) {
      const failed = perDocumentErrors(err);
      if (!failed) throw err;
      return written.map((ok, i) => {
        const e = failed.get(i);
        if (!e) return ok;
        return isDuplicateKey(e) ? { ok: true, value: false } : { ok: false, error: e };
      });
    }
  };
}

/** The per-document errors of an unordered `insertMany` (index to error), or null. */
function perDocumentErrors(err: unknown): Map<number, unknown> | null {
  const writeErrors = (err as Partial<MongoBulkWriteError>).writeErrors;
  if (!writeErrors) return null;
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  return list.length ? new Map(list.map((e) => [e.index, e])) : null;
}
