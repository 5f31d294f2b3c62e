import type { EmailRequested } from '@fieldhouse/contracts';
import type { Role } from './roles.ts';

/** What the invitation e-mail says. */
export interface InvitationEmailInput {
  to: string;
  workspaceName: string;
  workspaceId: number;
  /** The inviter's name (users projection), or null when unknown. */
  inviterName: string | null;
  role: Role;
  expiresAt: Date;
  /** The console's public address, no trailing slash (`PUBLIC_URL`). */
  publicUrl: string;
}

const ROLE_NAMES: Record<'en' | 'fr', Record<Role, string>> = {
  en: { owner: 'owner', admin: 'admin', manager: 'manager', collector: 'collector', viewer: 'viewer' },
  fr: {
    owner: 'propriétaire',
    admin: 'administrateur',
    manager: 'gestionnaire',
    collector: 'collecteur',
    viewer: 'lecteur',
  },
};

const day = (locale: string, d: Date) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(d);

/**
 * The invitation e-mail (`reason: workspace-invitation`): who invited the address to which
 * workspace with which role, until when, and the console's links to create an account with
 * this address (`/register`) or sign in (`/sign-in`), both returning to the workspace. The
 * recipient has no account yet, so no language is known: English, then French.
 */
export function invitationEmail(input: InvitationEmailInput): EmailRequested {
  const next = encodeURIComponent(`/workspaces/${input.workspaceId}`);
  const register = `${input.publicUrl}/register?next=${next}`;
  const signIn = `${input.publicUrl}/sign-in?next=${next}`;
  const who = input.inviterName ?? 'A Fieldhouse user';
  const qui = input.inviterName ?? 'Un utilisateur de Fieldhouse';
  const text = [
    `${who} invites you to the workspace "${input.workspaceName}" on Fieldhouse as ${ROLE_NAMES.en[input.role]}.`,
    '',
    `Create your account with this e-mail address (${input.to}) to join:`,
    register,
    '',
    `Already have an account with this address? Sign in: ${signIn}`,
    `This invitation is valid until ${day('en-GB', input.expiresAt)} (UTC).`,
    '',
    '---',
    '',
    `${qui} vous invite dans l’espace de travail « ${input.workspaceName} » sur Fieldhouse comme ${ROLE_NAMES.fr[input.role]}.`,
    '',
    `Créez votre compte avec cette adresse (${input.to}) pour le rejoindre :`,
    register,
    '',
    `Vous avez déjà un compte avec cette adresse ? Connectez-vous : ${signIn}`,
    `Cette invitation est valable jusqu’au ${day('fr-FR', input.expiresAt)} (UTC).`,
  ].join('\n');
  return {
    to: [input.to],
    subject: `Invitation to "${input.workspaceName}" on Fieldhouse / Invitation à « ${input.workspaceName} »`,
    text,
    reason: 'workspace-invitation',
  };
}
