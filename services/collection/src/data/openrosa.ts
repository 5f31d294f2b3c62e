import type { Db, Tx } from './tx.ts';
import type { VersionRow } from './versions.ts';

/** A stored OpenRosa instance: which submission its `meta/instanceID` became. */
export interface InstanceRow {
  project_id: number;
  instance_id: string;
  submission_id: number;
  xml_sha256: string;
  app_user_id: number | null;
}

/** The instance of the project with this `instanceID`, or undefined. */
export const findInstance = (
  db: Db | Tx,
  projectId: number,
  instanceId: string,
): Promise<InstanceRow | undefined> =>
  db('openrosa_instances').where({ project_id: projectId, instance_id: instanceId }).first();

/**
 * Records an instance of a submission (in the submission's transaction). A second instance with
 * the same (project, instanceID) fails on the primary key (`isUniqueViolation`).
 */
export async function insertInstance(trx: Tx, row: InstanceRow): Promise<void> {
  await trx('openrosa_instances').insert(row);
}

/** The project's published version with this number, or undefined. */
export const publishedVersionByNumber = (
  db: Db,
  projectId: number,
  number: number,
): Promise<VersionRow | undefined> =>
  db('form_versions').where({ project_id: projectId, number, status: 'published' }).first();
