/**
 * The allowed `type_invite` values (spec 2.3 says "not shown"; docs/events.md): a guest
 * category printed on badges and used to filter lists. Anything else is a 422.
 */
export const INVITE_TYPES = ['standard', 'vip', 'presse', 'intervenant', 'partenaire', 'staff'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

/** The type given to an invite created without `type_invite`. */
export const DEFAULT_INVITE_TYPE: InviteType = 'standard';

/**
 * The words people write for each type in a CSV (docs/events.md, "CSV import"): the API value,
 * and the English and French labels the console shows (the console's invites.json, en and fr),
 * plus plurals; matched case- and accent-insensitively.
 */
const TYPE_WORDS: Record<InviteType, string[]> = {
  standard: ['standard', 'standards', 'guest', 'invite', 'general'],
  vip: ['vip', 'vips'],
  presse: ['presse', 'press', 'media', 'medias', 'journalist', 'journaliste'],
  intervenant: ['intervenant', 'intervenants', 'intervenante', 'speaker', 'speakers', 'orateur', 'oratrice'],
  partenaire: ['partenaire', 'partenaires', 'partner', 'partners', 'sponsor', 'sponsors'],
  staff: ['staff', 'equipe', 'team', 'personnel'],
};

/** The invite type a written word names (English or French, any case or accents), or undefined. */
export function inviteTypeOfWord(word: string): InviteType | undefined {
  const key = word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  return (Object.keys(TYPE_WORDS) as InviteType[]).find((t) => TYPE_WORDS[t].includes(key));
}

/** The English words of each type, in the order of {@link INVITE_TYPES} (template, messages). */
export const TYPE_WORDS_EN: Record<InviteType, string> = {
  standard: 'standard',
  vip: 'vip',
  presse: 'press',
  intervenant: 'speaker',
  partenaire: 'partner',
  staff: 'staff',
};
