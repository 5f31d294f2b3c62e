import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import {
  LOGIC_KEYS,
  type Choice,
  type Constraints,
  type FieldDef,
  type FieldLogic,
  type FieldType,
  type Translations,
} from '../domain/types.ts';
import type { Tx } from './tx.ts';

export interface VersionRow {
  id: number;
  project_id: number;
  number: number;
  status: 'draft' | 'published';
  copied_from_version_id: number | null;
  /** BCP 47 codes (migration 017); empty: a one-language form. */
  languages: string[];
  default_language: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface FieldRow extends FieldDef {
  version_id: number;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export const versionJson = (v: VersionRow, fieldCount?: number) => ({
  id: v.id,
  project_id: v.project_id,
  number: v.number,
  status: v.status,
  is_published: v.status === 'published',
  copied_from_version_id: v.copied_from_version_id,
  languages: v.languages ?? [],
  default_language: v.default_language ?? null,
  ...(fieldCount !== undefined ? { field_count: fieldCount } : {}),
  published_at: v.published_at,
  created_at: v.created_at,
  updated_at: v.updated_at,
});

/** Every logic property of a field, null when unset (`read_only` false). */
function logicJson(logic: FieldLogic) {
  const out = Object.fromEntries(LOGIC_KEYS.map((k) => [k, logic[k] ?? null])) as {
    [K in keyof Required<FieldLogic>]: FieldLogic[K] | null;
  };
  return { ...out, read_only: logic.read_only ?? false };
}

export const fieldJson = (f: FieldRow) => ({
  id: f.id,
  uuid: f.uuid,
  version_id: f.version_id,
  name: f.name,
  label: f.label,
  type: f.type,
  required: f.required,
  choices: f.choices,
  constraints: f.constraints,
  parent: f.parent ?? null,
  ...logicJson(f.logic ?? {}),
  translations: f.translations ?? {},
  position: f.position,
  created_at: f.created_at,
  updated_at: f.updated_at,
});

export async function listVersions(db: Knex, projectId: number, page: number, perPage: number) {
  const [{ n }] = (await db('form_versions').where({ project_id: projectId }).count({ n: '*' })) as [
    { n: number },
  ];
  const rows = (await db('form_versions as v')
    .where('v.project_id', projectId)
    .select('v.*', db.raw('(SELECT count(*) FROM fields f WHERE f.version_id = v.id)::int AS field_count'))
    .orderBy('v.number', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)) as Array<VersionRow & { field_count: number }>;
  return { rows, total: Number(n) };
}

/**
 * Creates a draft version numbered after the project's last one; with `copyFrom`, its fields
 * are copied (new ids, same uuids, so submissions stay comparable across versions). Call it in a
 * transaction holding the project's lock (`lockProject`), so two drafts never share a number.
 */
export async function createVersion(
  trx: Tx,
  projectId: number,
  copyFrom: number | null,
): Promise<VersionRow> {
  const last = (await trx('form_versions').where({ project_id: projectId }).max({ m: 'number' }).first()) as {
    m: number | null;
  };
  const [v] = (await trx('form_versions')
    .insert({ project_id: projectId, number: (last.m ?? 0) + 1, copied_from_version_id: copyFrom })
    .returning('*')) as [VersionRow];
  if (copyFrom !== null) {
    await trx.raw(
      `INSERT INTO fields (version_id, uuid, name, label, type, required, choices, constraints, position, parent, logic, translations)
       SELECT ?, uuid, name, label, type, required, choices, constraints, position, parent, logic, translations FROM fields WHERE version_id = ?`,
      [v.id, copyFrom],
    );
    const from = await findVersion(trx, copyFrom);
    if (from?.languages.length)
      return updateVersionLanguages(trx, v.id, {
        languages: from.languages,
        default_language: from.default_language,
      });
  }
  return v;
}

export const findVersion = (db: Knex | Knex.Transaction, id: number): Promise<VersionRow | undefined> =>
  db('form_versions').where({ id }).first();

/** The project's latest published version, or undefined. */
export const lastPublishedVersion = (db: Knex, projectId: number): Promise<VersionRow | undefined> =>
  db('form_versions').where({ project_id: projectId, status: 'published' }).orderBy('number', 'desc').first();

export const listFields = (db: Knex | Knex.Transaction, versionId: number): Promise<FieldRow[]> =>
  db('fields')
    .where({ version_id: versionId })
    .orderBy([{ column: 'position' }, { column: 'id' }]);

export const countFields = async (db: Knex, versionId: number): Promise<number> => {
  const [{ n }] = (await db('fields').where({ version_id: versionId }).count({ n: '*' })) as [{ n: number }];
  return Number(n);
};

export const findField = (db: Knex, versionId: number, id: number): Promise<FieldRow | undefined> =>
  db('fields').where({ version_id: versionId, id }).first();

export interface FieldInput {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  choices: Choice[] | null;
  constraints: Constraints;
  position?: number;
  parent?: string | null;
  logic?: FieldLogic;
  translations?: Translations;
}

const encode = (f: Partial<FieldInput>) => ({
  ...f,
  ...(f.choices !== undefined ? { choices: f.choices === null ? null : JSON.stringify(f.choices) } : {}),
  ...(f.constraints !== undefined ? { constraints: JSON.stringify(f.constraints) } : {}),
  ...(f.logic !== undefined ? { logic: JSON.stringify(f.logic) } : {}),
  ...(f.translations !== undefined ? { translations: JSON.stringify(f.translations) } : {}),
});

/** Sets a version's languages and default language (migration 017). */
export async function updateVersionLanguages(
  db: Knex | Tx,
  id: number,
  v: { languages: string[]; default_language: string | null },
): Promise<VersionRow> {
  const [row] = (await db('form_versions')
    .where({ id })
    .update({
      languages: JSON.stringify(v.languages),
      default_language: v.default_language,
      updated_at: db.fn.now(),
    })
    .returning('*')) as [VersionRow];
  return row;
}

/** Adds a field at the end of the version (unless a position is given), with a fresh uuid. */
export async function insertField(db: Knex, versionId: number, f: FieldInput): Promise<FieldRow> {
  const position =
    f.position ??
    ((
      (await db('fields').where({ version_id: versionId }).max({ m: 'position' }).first()) as {
        m: number | null;
      }
    ).m ?? -1) + 1;
  const [row] = (await db('fields')
    .insert({ ...encode(f), position, version_id: versionId, uuid: randomUUID() })
    .returning('*')) as [FieldRow];
  return row;
}

/**
 * Adds the fields of a new version at once (an XLSForm upload), each with a fresh uuid and its
 * position in the list unless it has one; in batches of 500 rows.
 */
export async function insertFields(trx: Tx, versionId: number, fields: readonly FieldInput[]): Promise<void> {
  const rows = fields.map((f, i) => ({
    ...encode(f),
    position: f.position ?? i,
    version_id: versionId,
    uuid: randomUUID(),
  }));
  for (let i = 0; i < rows.length; i += 500) await trx('fields').insert(rows.slice(i, i + 500));
}

export async function updateField(db: Knex, id: number, f: Partial<FieldInput>): Promise<FieldRow> {
  const [row] = (await db('fields')
    .where({ id })
    .update({ ...encode(f), updated_at: db.fn.now() })
    .returning('*')) as [FieldRow];
  return row;
}

export const deleteField = (db: Knex, id: number) => db('fields').where({ id }).delete();

/** Marks a draft published and makes it the project's current version (call it in a transaction). */
export async function publishVersion(trx: Tx, v: VersionRow): Promise<VersionRow> {
  const [row] = (await trx('form_versions')
    .where({ id: v.id, status: 'draft' })
    .update({ status: 'published', published_at: trx.fn.now(), updated_at: trx.fn.now() })
    .returning('*')) as [VersionRow];
  await trx('projects')
    .where({ id: v.project_id })
    .update({ current_version_id: v.id, updated_at: trx.fn.now() });
  return row;
}
