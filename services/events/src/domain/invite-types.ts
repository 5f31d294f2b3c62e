/**
 * The allowed `type_invite` values (spec 2.3 says "not shown"; docs/events.md): a guest
 * category printed on badges and used to filter lists. Anything else is a 422.
 */
export const INVITE_TYPES = ['standard', 'vip', 'presse', 'intervenant', 'partenaire', 'staff'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

/** The type given to an invite created without `type_invite`. */
export const DEFAULT_INVITE_TYPE: InviteType = 'standard';
