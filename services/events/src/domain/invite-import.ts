import { ProblemError, unstorableTextErrors, type FieldErrors } from '@fieldhouse/problem';
import { takenEmails } from '../data/invites.ts';
import { requireAccess } from './access.ts';
import type { Actor, EventsContext } from './context.ts';
import { CsvFileError, parseInviteCsv, TEMPLATE_HEADERS } from './csv.ts';
import { INVITE_TYPES, inviteTypeOfWord, TYPE_WORDS_EN, type InviteType } from './invite-types.ts';
import { addInvite, type NewInvite } from './invites.ts';
import { problems } from './problems.ts';

/**
 * One row's outcome in the import answer; `row` is the CSV line number (the header is line 1).
 * A preview says `ready` (would be created, with the values read) where an import says `created`.
 */
type ImportRowResult =
  | {
      row: number;
      status: 'created';
      id: string;
      nom: string;
      code_unique: string;
      type_invite: string;
      seats: number;
    }
  | { row: number; status: 'ready'; nom: string; email: string; type_invite: string; seats: number }
  | { row: number; status: 'failed'; errors: FieldErrors };

/**
 * The import answer: how many rows were created (or, in a preview, are ready) and failed, one
 * result per row, whether it was a preview, and when the invitation e-mails go (`now`: queued
 * with each invite; `later`: held until "send the held invitations").
 */
export interface ImportResult {
  preview: boolean;
  emails: 'now' | 'later';
  created: number;
  ready: number;
  failed: number;
  results: ImportRowResult[];
}

/** Reads one CSV row's cells as an invite, or says which fields are wrong (the http layer's schema). */
export type InviteRowParser = (cells: {
  nom?: string;
  email?: string;
  type_invite?: string;
  seats?: string;
}) => { invite: NewInvite } | { errors: FieldErrors };

const TYPES_IN_WORDS =
  `${INVITE_TYPES.map((t) => TYPE_WORDS_EN[t]).join(', ')} ` +
  `(or in French: ${INVITE_TYPES.filter((t) => TYPE_WORDS_EN[t] !== t).join(', ')})`;

/** The row's cells with the type written in English or French as its API value. */
function cellsOf(values: Record<string, string>): {
  cells: Parameters<InviteRowParser>[0];
  errors: FieldErrors;
} {
  const written = values.type_invite?.trim();
  const type: InviteType | undefined = written ? inviteTypeOfWord(written) : undefined;
  const errors: FieldErrors =
    written && !type ? { type_invite: [`Unknown type "${written}": use ${TYPES_IN_WORDS}.`] } : {};
  return {
    cells: {
      nom: values.nom,
      email: values.email,
      ...(type ? { type_invite: type } : {}),
      ...(values.seats?.trim() ? { seats: values.seats.trim() } : {}),
    },
    errors,
  };
}

/**
 * Bulk import of invites from a CSV (docs/events.md, "CSV import"): columns named in English,
 * French or by their API names (`name`/`nom`, `email`/`courriel`, optional `type`/`type_invite`
 * and `seats`/`places`; `,` or `;`), type values in either language, any case. Each row is
 * created on its own, so bad rows never fail good ones. `emails`: `now` queues each invitation
 * e-mail with its invite, `later` holds them back (sent by {@link sendHeldInvitations} of
 * invites.ts). `preview`: nothing is stored; each row says what an import would do (`ready`
 * with the values read, or `failed` with why, e-mails already invited and repeated in the file
 * included). `text` is undefined when the request held no CSV. Owner only.
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff;
 * problems.unreadable (400) without a CSV; problems.invalid (422) naming `file` when the file as
 * a whole is unusable (no name or e-mail column, broken quoting, more than 5,000 rows).
 */
export async function importInvites(
  ctx: EventsContext,
  cmd: {
    actor: Actor;
    eventId: string;
    text: string | undefined;
    parseRow: InviteRowParser;
    preview?: boolean;
    emails?: 'now' | 'later';
  },
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
  const preview = cmd.preview ?? false;
  const emails = cmd.emails ?? 'now';
  const taken = preview
    ? await takenEmails(
        ctx.db,
        event.id,
        rows.map((r) => (r.values.email ?? '').trim().toLowerCase()).filter(Boolean),
      )
    : new Set<string>();
  const results: ImportRowResult[] = [];
  for (const { line, values } of rows) {
    const unstorable = unstorableTextErrors(values);
    if (Object.keys(unstorable).length) {
      results.push({ row: line, status: 'failed', errors: unstorable });
      continue;
    }
    const { cells, errors } = cellsOf(values);
    const parsed = cmd.parseRow(cells);
    if ('errors' in parsed || Object.keys(errors).length) {
      results.push({
        row: line,
        status: 'failed',
        errors: { ...('errors' in parsed ? parsed.errors : {}), ...errors },
      });
      continue;
    }
    const invite = parsed.invite;
    if (preview) {
      if (taken.has(invite.email)) {
        results.push({
          row: line,
          status: 'failed',
          errors: { email: ['This e-mail is already invited to the event.'] },
        });
        continue;
      }
      taken.add(invite.email);
      results.push({
        row: line,
        status: 'ready',
        nom: invite.nom,
        email: invite.email,
        type_invite: invite.type_invite ?? 'standard',
        seats: invite.seats ?? 1,
      });
      continue;
    }
    try {
      const created = await addInvite(ctx, event, invite, { holdEmail: emails === 'later' });
      results.push({
        row: line,
        status: 'created',
        id: created.id,
        nom: created.nom,
        code_unique: created.code_unique,
        type_invite: created.type_invite,
        seats: created.seats,
      });
    } catch (err) {
      if (!(err instanceof ProblemError) || !err.errors) throw err;
      results.push({ row: line, status: 'failed', errors: err.errors });
    }
  }
  const count = (status: ImportRowResult['status']) => results.filter((x) => x.status === status).length;
  return {
    preview,
    emails,
    created: count('created'),
    ready: count('ready'),
    failed: count('failed'),
    results,
  };
}

/** Example rows of the template, in its language. */
const TEMPLATE_ROWS = {
  en: [
    ['Ada Lovelace', 'ada@example.org', 'speaker', '1'],
    ['Grace Hopper', 'grace@example.org', 'vip', '2'],
    ['Katherine Johnson', 'katherine@example.org', 'press', '1'],
  ],
  fr: [
    ['Marie Curie', 'marie@example.org', 'intervenant', '1'],
    ['Irène Joliot-Curie', 'irene@example.org', 'vip', '2'],
    ['Émilie du Châtelet', 'emilie@example.org', 'presse', '1'],
  ],
} as const;

/**
 * The import template in `language` (docs/events.md, "CSV import"): the header in that language
 * (`name,email,type,seats` or `nom,courriel,type,places`) and three example rows with type
 * values in that language, UTF-8 with a BOM (so spreadsheet programs read the accents), CRLF
 * line ends (RFC 4180). Owner only (the one who imports).
 * @throws problems.noSuch (404) unless owner or staff; problems.ownerOnly (403) for staff.
 */
export async function importTemplate(
  ctx: EventsContext,
  cmd: { actor: Actor; eventId: string; language: 'en' | 'fr' },
): Promise<{ filename: string; text: string }> {
  await requireAccess(ctx, { actor: cmd.actor, permission: 'event.manage', eventId: cmd.eventId });
  const { language } = cmd;
  const quote = (v: string) => (/[",;\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = [TEMPLATE_HEADERS[language], ...TEMPLATE_ROWS[language]].map((r) => r.map(quote).join(','));
  return {
    filename: language === 'fr' ? 'invites-modele.csv' : 'invitees-template.csv',
    text: `\uFEFF${lines.join('\r\n')}\r\n`,
  };
}
