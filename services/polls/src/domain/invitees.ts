import { createHash, randomBytes } from 'node:crypto';
import type { InviteeDoc } from '../data/documents.ts';
import { requireAccess } from './access.ts';
import { changes } from './changes.ts';
import type { BodyReader, PollsContext } from './context.ts';
import { newId } from './ids.ts';
import { invitationEmail } from './invitation-email.ts';
import type { EmailLanguage } from './otp-email.ts';
import { problems } from './problems.ts';
import type { Actor, PollDoc } from './types.ts';

/**
 * Invited voters (issue 37, part 4; docs/polls.md, "Invited voters"): the owner adds invitees by
 * e-mail, lists them (voted or not: the register, never what they chose), removes them and sends
 * reminders. Each invitation and reminder e-mails a personal link with a new random token; only
 * its SHA-256 is stored.
 */

/** Reminders sent by one request, at most (the rest: ask again). */
const MAX_REMINDERS_PER_REQUEST = 500;

/** A new invitation token: 24 random bytes, base64url (32 characters). */
const newToken = (): string => randomBytes(24).toString('base64url');

/** The stored form of a token: SHA-256, hex. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The personal link of a token (its fragment never reaches a server's log). */
const linkOf = (publicUrl: string, pollId: string, token: string) =>
  `${publicUrl}/p/${pollId}#invite=${token}`;

/** An invitee as the owner sees it: whether they voted, never what they chose. */
export interface InviteeView {
  id: string;
  email: string;
  status: InviteeDoc['state'];
  invited_at: string;
  reminded_at: string | null;
  reminders: number;
  /** The UTC hour the invitee voted (the register's granularity), or null. */
  voted_hour: string | null;
}

/** What inviting again changes of a withdrawn invitee (the rest is as it was). */
const pick = (d: InviteeDoc) => ({ state: d.state, token_hashes: d.token_hashes, invited_at: d.invited_at });

const inviteeView = (d: InviteeDoc): InviteeView => ({
  id: d._id,
  email: d.email,
  status: d.state,
  invited_at: d.invited_at,
  reminded_at: d.reminded_at,
  reminders: d.reminders,
  voted_hour: d.voted_hour,
});

/** The poll, when the actor owns it (the one access check). */
async function invitedPoll(ctx: PollsContext, actor: Actor, pollId: string): Promise<PollDoc> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.manage', pollId });
  return poll;
}

/** Queues one invitation or reminder e-mail with the invitee's change, undone if it cannot be queued. */
async function sendLink(
  ctx: PollsContext,
  poll: PollDoc,
  email: string,
  token: string,
  reminder: boolean,
  language: EmailLanguage,
  write: () => Promise<boolean>,
  undo: () => Promise<void>,
): Promise<boolean> {
  const mail = invitationEmail(
    email,
    { title: poll.title, link: linkOf(ctx.settings.publicUrl, poll._id, token), reminder },
    language,
  );
  return ctx.inTransaction(async ({ outbox, onRollback }) => {
    if (!(await write())) return false;
    onRollback(undo);
    await changes.append(outbox, 'email.requested', mail);
    return true;
  });
}

/** Command of {@link addInvitees}. */
export interface AddInvitees {
  pollId: string;
  actor: Actor;
  /** `{emails}` (http/invitee-schemas.ts: valid addresses, 1 to 1,000), read once access is granted. */
  input: BodyReader<{ emails: string[] }>;
  language: EmailLanguage;
}

/**
 * `POST /polls/{poll_id}/invitees` `{emails}`: invites each new address (lower-cased, repeats
 * ignored), e-mailing each its personal link (an `email.requested` outbox message written with
 * the invitee, as the one-time password e-mail is). An address already invited (or that voted)
 * is skipped; one whose invitation was withdrawn is invited again with a new link (the withdrawn
 * links stay refused).
 * Allowed on any poll of the owner; the links work once `voters` is `invited`.
 * @throws ProblemError 401, 403 not the owner, 404 unknown poll, 422 bad body.
 */
export async function addInvitees(
  ctx: PollsContext,
  { pollId, actor, input, language }: AddInvitees,
): Promise<{ added: InviteeView[]; skipped: string[] }> {
  const poll = await invitedPoll(ctx, actor, pollId);
  const emails = [...new Set(input().emails.map((e) => e.trim().toLowerCase()))];
  const added: InviteeView[] = [];
  const skipped: string[] = [];
  for (const email of emails) {
    const token = newToken();
    const doc: InviteeDoc = {
      _id: newId(),
      poll_id: poll._id,
      email,
      token_hashes: [tokenHash(token)],
      state: 'invited',
      invited_at: new Date().toISOString(),
      reminded_at: null,
      reminders: 0,
      voted_hour: null,
    };
    // A new address, or one whose invitation was withdrawn (invited again with a new link).
    let revived: InviteeDoc | null = null;
    const write = async () => {
      if (await ctx.invitees.add(doc)) return true;
      revived = await ctx.invitees.revive(poll._id, email, doc.token_hashes[0]!, doc.invited_at);
      return revived !== null;
    };
    const undo = () => (revived ? ctx.invitees.unrevive(revived) : ctx.invitees.remove(doc._id));
    const ok = await sendLink(ctx, poll, email, token, false, language, write, undo);
    if (ok) added.push(inviteeView(revived ? { ...(revived as InviteeDoc), ...pick(doc) } : doc));
    else skipped.push(email);
  }
  return { added, skipped };
}

/** Command of {@link listInvitees}. */
export interface ListInvitees {
  pollId: string;
  actor: Actor;
  page: BodyReader<{ page: number; per_page: number }>;
}

/**
 * `GET /polls/{poll_id}/invitees?page&per_page`: the poll's invitees by e-mail with their status
 * (`invited`, `voted`, `revoked`), and the counts of each (owner only). Never a ballot.
 * @throws ProblemError 401, 403, 404; 422 bad page.
 */
export async function listInvitees(
  ctx: PollsContext,
  { pollId, actor, page: readPage }: ListInvitees,
): Promise<{ items: InviteeView[]; total: number; counts: Record<InviteeDoc['state'], number> }> {
  const poll = await invitedPoll(ctx, actor, pollId);
  const { page, per_page: perPage } = readPage();
  const [{ items, total }, counts] = await Promise.all([
    ctx.invitees.page(poll._id, (page - 1) * perPage, perPage),
    ctx.invitees.counts(poll._id),
  ]);
  return { items: items.map(inviteeView), total, counts };
}

/**
 * `DELETE /polls/{poll_id}/invitees/{invitee_id}`: withdraws an unused invitation; its links
 * then answer `invitation_refused` (`revoked`). An invitee who voted stays (the ballot is
 * counted and, on an anonymous poll, cannot be found): 422.
 * @throws ProblemError 401, 403, 404 unknown poll or invitee; 422 already voted.
 */
export async function removeInvitee(
  ctx: PollsContext,
  { pollId, actor, inviteeId }: { pollId: string; actor: Actor; inviteeId: string },
): Promise<InviteeView> {
  const poll = await invitedPoll(ctx, actor, pollId);
  const revoked = await ctx.invitees.revoke(poll._id, inviteeId);
  if (revoked) return inviteeView(revoked);
  const found = await ctx.invitees.byId(poll._id, inviteeId);
  if (!found) throw problems.notFound({ what: 'invitee' });
  if (found.state === 'revoked') return inviteeView(found);
  throw problems.invalid({
    errors: { invitee_id: ['This invitee has voted: the invitation was used and cannot be withdrawn.'] },
  });
}

/**
 * `POST /polls/{poll_id}/invitees/remind`: e-mails each invitee who has not voted (nor been
 * removed) a reminder with a new personal link (a new token; the earlier links keep working until
 * the invitee votes), at most {@link MAX_REMINDERS_PER_REQUEST} per request, the least reminded
 * first; `remaining`: how many this round has not reached yet (send again to reach them).
 * @throws ProblemError 401, 403, 404.
 */
export async function remindInvitees(
  ctx: PollsContext,
  { pollId, actor, language }: { pollId: string; actor: Actor; language: EmailLanguage },
): Promise<{ reminded: number; remaining: number }> {
  const poll = await invitedPoll(ctx, actor, pollId);
  const due = await ctx.invitees.notVoted(poll._id, MAX_REMINDERS_PER_REQUEST);
  let reminded = 0;
  for (const inv of due) {
    const token = newToken();
    const hash = tokenHash(token);
    const ok = await sendLink(
      ctx,
      poll,
      inv.email,
      token,
      true,
      language,
      () => ctx.invitees.addReminder(inv._id, hash, new Date().toISOString()),
      () => ctx.invitees.removeReminder(inv._id, hash),
    );
    if (ok) reminded += 1;
  }
  // Those this round has not reached: fewer reminders than the last one reminded now has.
  const level = due.length ? due[due.length - 1]!.reminders + 1 : 0;
  const remaining = level ? await ctx.invitees.remindedFewer(poll._id, level) : 0;
  return { reminded, remaining };
}
