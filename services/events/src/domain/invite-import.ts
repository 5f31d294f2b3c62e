import { ProblemError, unstorableTextErrors, type FieldErrors } from '@fieldhouse/problem';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext } from './context.ts';
import { CsvFileError, parseInviteCsv } from './csv.ts';
import { addInvite, type NewInvite } from './invites.ts';
import { problems } from './problems.ts';

/** One row's outcome in the import answer; `row` is the CSV line number (the header is line 1). */
type ImportRowResult =
  | { row: number; status: 'created'; id: string; nom: string; code_unique: string }
  | { row: number; status: 'failed'; errors: FieldErrors };

/** The import answer: how many rows were created and failed, and one result per row. */
export interface ImportResult {
  created: number;
  failed: number;
  results: ImportRowResult[];
}

/** Reads one CSV row's cells as an invite, or says which fields are wrong (the http layer's schema). */
export type InviteRowParser = (cells: {
  nom?: string;
  email?: string;
  type_invite?: string;
}) => { invite: NewInvite } | { errors: FieldErrors };

/**
 * Bulk import of invites from a CSV (columns `nom`, `email`, optional `type_invite`; `,` or `;`).
 * Each row is created on its own with its invitation e-mail, so bad rows never fail good ones.
 * `text` is undefined when the request held no CSV. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.unreadable (400) without a CSV; problems.invalid (422) naming `file` when the file as
 * a whole is unusable (no header with `nom` and `email`, broken quoting, more than 5,000 rows).
 */
export async function importInvites(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; text: string | undefined; parseRow: InviteRowParser },
): Promise<ImportResult> {
  const { event } = await requireAccess(ctx, {
    actor: cmd.actor,
    permission: 'event.manage',
    eventId: cmd.eventId,
  });
  if (cmd.text === undefined) throw problems.unreadable({ why: 'noCsv' });
  let rows;
  try {
    rows = parseInviteCsv(cmd.text);
  } catch (err) {
    if (err instanceof CsvFileError) throw problems.invalid({ errors: { file: [err.message] } });
    throw err;
  }
  const results: ImportRowResult[] = [];
  for (const { line, values } of rows) {
    const unstorable = unstorableTextErrors(values);
    if (Object.keys(unstorable).length) {
      results.push({ row: line, status: 'failed', errors: unstorable });
      continue;
    }
    const parsed = cmd.parseRow({
      nom: values.nom,
      email: values.email,
      ...(values.type_invite ? { type_invite: values.type_invite } : {}),
    });
    if ('errors' in parsed) {
      results.push({ row: line, status: 'failed', errors: parsed.errors });
      continue;
    }
    try {
      const invite = await addInvite(ctx, event, parsed.invite);
      results.push({
        row: line,
        status: 'created',
        id: invite.id,
        nom: invite.nom,
        code_unique: invite.code_unique,
      });
    } catch (err) {
      if (!(err instanceof ProblemError) || !err.errors) throw err;
      results.push({ row: line, status: 'failed', errors: err.errors });
    }
  }
  const created = results.filter((x) => x.status === 'created').length;
  return { created, failed: results.length - created, results };
}
