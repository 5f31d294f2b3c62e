/**
 * Messages of the presence response (spec 2.3 and 3: `{success, message}`). `true` names the
 * invitee as present; `false` names them as absent (the spec leaves that text to us).
 */
export function presenceMessage(nom: string, presence: boolean, previous: boolean): string {
  if (presence) return previous ? `${nom} was already marked present.` : `${nom} is marked present.`;
  return previous ? `${nom} is now marked absent.` : `${nom} was already marked absent.`;
}
