import { problemBody } from '@fieldhouse/problem';

/** The invitee as a check-in result shows it. */
export interface ScannedInvite {
  id: string;
  nom: string;
  type_invite: string;
}

/**
 * What a scan of a `code_unique` did, in the manner of pretix's check-in API:
 * - `checked_in`: the invitee was absent and is now present;
 * - `already_checked_in`: present already (when and by whom are given; nothing changed);
 * - `unknown_code`: no invite anywhere has this code;
 * - `wrong_event`: the code belongs to another event (which one is not revealed);
 * - `revoked`: the invite was revoked by the organiser.
 */
export type CheckinOutcome =
  | { result: 'checked_in'; invite: ScannedInvite; checked_in_at: string; scanne_par: string | null }
  | { result: 'already_checked_in'; invite: ScannedInvite; checked_in_at: string; scanne_par: string | null }
  | { result: 'unknown_code' }
  | { result: 'wrong_event' }
  | { result: 'revoked'; invite: ScannedInvite };

export type CheckinResult = CheckinOutcome['result'];

/** An HTTP answer: status and JSON body (a problem document for every status but 200). */
export interface CheckinAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The HTTP answer of an outcome (docs/events.md, "Check-in"):
 * 200 `{result: "checked_in", message, invite, checked_in_at, scanne_par}`;
 * 409 problem `already_checked_in` with `invite`, `checked_in_at`, `scanne_par`;
 * 404 problem `unknown_code`; 422 problem `wrong_event`; 409 problem `revoked` with `invite`.
 * Every body carries `result`, so batch results and single answers read the same.
 */
export function checkinAnswer(o: CheckinOutcome): CheckinAnswer {
  switch (o.result) {
    case 'checked_in':
      return { status: 200, body: { ...o, message: `${o.invite.nom} is checked in.` } };
    case 'already_checked_in':
      return problem(409, `${o.invite.nom} was already checked in at ${o.checked_in_at}.`, o.result, {
        invite: o.invite,
        checked_in_at: o.checked_in_at,
        scanne_par: o.scanne_par,
      });
    case 'unknown_code':
      return problem(404, 'No invite has this code.', o.result, {});
    case 'wrong_event':
      return problem(422, 'This code belongs to another event.', o.result, {});
    case 'revoked':
      return problem(409, `The invite of ${o.invite.nom} was revoked.`, o.result, { invite: o.invite });
  }
}

function problem(status: number, detail: string, result: CheckinResult, ext: Record<string, unknown>) {
  return { status, body: { ...problemBody(status, detail, { code: result, extensions: ext }), result } };
}
