/**
 * The account pages in one lazy chunk (routes.tsx imports it once): five small pages, and one
 * dynamic import less on the voting page's budget for each (scripts/page-budget.ts).
 */
export { ForgotPasswordPage } from './ForgotPasswordPage.tsx';
export { PasswordPage } from './PasswordPage.tsx';
export { ProfilePage } from './ProfilePage.tsx';
export { ResetPasswordPage } from './ResetPasswordPage.tsx';
export { VerifyEmailPage } from './VerifyEmailPage.tsx';
