/**
 * One export run in its own process, so its peak RSS is the worker's: `node child.ts <db url>
 * <blob dir> <export id>`. Prints `{ms, rows, bytes, maxRssMiB}` as JSON on stdout.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createKnex } from '@fieldhouse/db';
import { FileBlobStore } from '../../services/collection/src/blob/blob-store.ts';
import { claimExport } from '../../services/collection/src/data/exports.ts';
import { writeExportFile } from '../../services/collection/src/workers/export-file.ts';

const [dbUrl, blobDir, exportId] = process.argv.slice(2) as [string, string, string];
const db = createKnex(dbUrl, { poolMax: 3 });
const claim = await claimExport(db, exportId, { leaseMs: 60_000, maxAttempts: 1_000 });
if (claim.kind !== 'claimed') throw new Error(`export not claimable: ${claim.kind}`);
const t0 = performance.now();
const { rows, key } = await writeExportFile(db, new FileBlobStore(blobDir), claim.job, {
  heartbeatMs: 1000,
  leaseMs: 60_000,
  publicUrl: 'https://fieldhouse.example.org',
});
const ms = performance.now() - t0;
const { size } = await stat(join(blobDir, key));
await db.destroy();
console.log(JSON.stringify({ ms, rows, bytes: size, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
