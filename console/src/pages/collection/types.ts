import type { components } from '../../api/generated/collection.ts';

/** Area A's records as the collection service returns them (docs/collection.md). */
type Schemas = components['schemas'];
export type Workspace = Schemas['Workspace'];
export type Member = Schemas['Member'];
export type Role = Schemas['Role'];
export type Project = Schemas['Project'];
export type VersionWithFields = Schemas['VersionWithFields'];
export type Field = Schemas['Field'];
export type FieldType = Field['type'];
export type Submission = Schemas['Submission'];
export type SubmissionStatus = Submission['status'];
export type DataEntry = Schemas['DataEntry'];
export type ExportJob = Schemas['ExportJob'];
export type Analysis = Schemas['Analysis'];
export type ChartView = Schemas['ChartView'];
export type Stats = Schemas['Stats'];
export type SyncResult = Schemas['SyncResult'];

/** The spec's field types (2.1), in the order the form builder offers them. */
export const FIELD_TYPES: readonly FieldType[] = [
  'text',
  'integer',
  'decimal',
  'date',
  'time',
  'datetime',
  'select_one',
  'select_multiple',
  'geopoint',
  'photo',
];

/** The spec's submission status values (2.1). */
export const SUBMISSION_STATUSES: readonly SubmissionStatus[] = [
  'submitted',
  'draft',
  'reviewed',
  'rejected',
  'requires_correction',
];
