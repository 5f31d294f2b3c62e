import { useMe } from '../../auth/session.ts';
import { EmailVerification } from './EmailVerification.tsx';

/**
 * The unconfirmed-address notice ({@link EmailVerification}) for the signed-in user, or nothing
 * when signed out, still loading, or confirmed: for pages a newcomer lands on (the start page, a
 * workspace they were invited to but cannot open until the address is confirmed).
 */
export function UnconfirmedEmailNotice() {
  const me = useMe();
  const account = me.data;
  if (!account || account.email_verified_at) return null;
  return <EmailVerification email={account.email} />;
}
