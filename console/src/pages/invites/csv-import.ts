import Papa from 'papaparse';
import { looksLikeEmail } from '../../components/email.ts';

/** The columns an import needs: `nom` and `email`, and optionally `type_invite` and `seats`. */
export const TARGETS = ['nom', 'email', 'type_invite', 'seats'] as const;
type Target = (typeof TARGETS)[number];

/** Which column of the file feeds each target (`null`: none; `type_invite` and `seats` may have none). */
export type ColumnMap = Record<Target, number | null>;

/** A parsed file: its header and data rows (strings), or why it cannot be used. */
export type ParsedCsv = { header: string[]; rows: string[][] } | { error: string };

/** The service's limits on an import (docs/events.md, "CSV import"). */
export const MAX_ROWS = 5000;
export const MAX_BYTES = 5 * 1024 * 1024;

/** A data row checked as the service will check it: line number in the file (header = 1) and problems by target. */
export interface CheckedRow {
  line: number;
  values: Record<Target, string>;
  problems: Partial<Record<Target, string>>;
}

/** Names a column is recognised by, for each target (compared without case, accents or spaces). */
const SYNONYMS: Record<Target, string[]> = {
  nom: ['nom', 'name', 'fullname', 'nomcomplet', 'invite', 'guest'],
  email: ['email', 'mail', 'courriel', 'emailaddress', 'adresseemail'],
  type_invite: ['typeinvite', 'type', 'category', 'categorie', 'ticket', 'tickettype', 'invitetype'],
  seats: ['seats', 'places', 'partysize', 'people', 'personnes'],
};
const squash = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** Parses a CSV file in the browser (Papa Parse: `,` or `;`, quotes, BOM), empty lines skipped. */
export function parseCsv(text: string): ParsedCsv {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const fatal = result.errors.find((e) => e.type === 'Quotes');
  if (fatal) return { error: `line ${(fatal.row ?? 0) + 1}: ${fatal.message}` };
  const [header, ...rows] = result.data;
  if (!header || header.length === 0) return { error: 'empty' };
  return { header: header.map((h) => h.trim()), rows };
}

/** The first column whose header names each target, else none. */
export function guessColumns(header: string[]): ColumnMap {
  const find = (t: Target) => {
    const i = header.findIndex((h) => SYNONYMS[t].includes(squash(h)));
    return i === -1 ? null : i;
  };
  return { nom: find('nom'), email: find('email'), type_invite: find('type_invite'), seats: find('seats') };
}

/**
 * Each data row's values under the mapping, checked as the service checks them: `nom` 1 to 255
 * characters, `email` a valid address (at most 320) and not twice in the file, `seats` empty or
 * a whole number from 1 to 100. Type values (English or French words, any case) and invitees
 * already in the event are checked by the service's preview, which says per row what will happen.
 */
export function checkRows(rows: string[][], map: ColumnMap): CheckedRow[] {
  const seen = new Map<string, number>();
  return rows.map((cells, i) => {
    const cell = (t: Target) => (map[t] === null ? '' : (cells[map[t]!] ?? '').trim());
    const values = {
      nom: cell('nom'),
      email: cell('email').toLowerCase(),
      type_invite: cell('type_invite'),
      seats: cell('seats'),
    };
    const problems: CheckedRow['problems'] = {};
    if (!values.nom) problems.nom = 'missing';
    else if (values.nom.length > 255) problems.nom = 'too_long';
    if (!values.email) problems.email = 'missing';
    else if (values.email.length > 320 || !looksLikeEmail(values.email)) problems.email = 'invalid';
    else if (seen.has(values.email)) problems.email = 'duplicate';
    if (values.email) seen.set(values.email, i);
    if (
      values.seats &&
      !(/^\d+$/.test(values.seats) && Number(values.seats) >= 1 && Number(values.seats) <= 100)
    )
      problems.seats = 'invalid';
    return { line: i + 2, values, problems };
  });
}

/** The CSV sent to the service: a header and the good rows, in the columns it reads. */
export function csvOf(rows: CheckedRow[]): string {
  return Papa.unparse({
    fields: [...TARGETS],
    data: rows.map((r) => [r.values.nom, r.values.email, r.values.type_invite, r.values.seats]),
  });
}
