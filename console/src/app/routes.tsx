import { Navigate, Route, Routes } from 'react-router';
import { PublicLayout } from '../layout/PublicLayout.tsx';
import { lazyPage } from './lazy-page.tsx';

// Each page is its own lazy chunk, so the public voting page downloads none of the admin pages
// (its budget: scripts/vote-budget.ts). React Router runs in declarative mode: the data router
// would add about 15 KB gzip to the voting page for loaders this console does not use.
export const VotePage = lazyPage(async () => (await import('../pages/vote/VotePage.tsx')).VotePage);
export const ResultsPage = lazyPage(
  async () => (await import('../pages/results/ResultsPage.tsx')).ResultsPage,
);
export const EmbedPage = lazyPage(async () => (await import('../pages/embed/EmbedPage.tsx')).EmbedPage);
const SignInPage = lazyPage(async () => (await import('../pages/auth/SignInPage.tsx')).SignInPage);
const RegisterPage = lazyPage(async () => (await import('../pages/auth/RegisterPage.tsx')).RegisterPage);
const accountPages = () => import('../pages/account/pages.ts');
const ForgotPasswordPage = lazyPage(async () => (await accountPages()).ForgotPasswordPage);
const ResetPasswordPage = lazyPage(async () => (await accountPages()).ResetPasswordPage);
const VerifyEmailPage = lazyPage(async () => (await accountPages()).VerifyEmailPage);
const ProfilePage = lazyPage(async () => (await accountPages()).ProfilePage);
const PasswordPage = lazyPage(async () => (await accountPages()).PasswordPage);
const HomePage = lazyPage(async () => (await import('../pages/home/HomePage.tsx')).HomePage);
const StartPage = lazyPage(async () => (await import('../pages/start/StartPage.tsx')).StartPage);
export const ConsoleLayout = lazyPage(
  async () => (await import('../layout/ConsoleLayout.tsx')).ConsoleLayout,
);
const PollsPage = lazyPage(async () => (await import('../pages/polls/PollsPage.tsx')).PollsPage);
const PollEditorPage = lazyPage(
  async () => (await import('../pages/polls/PollEditorPage.tsx')).PollEditorPage,
);
const TokensPage = lazyPage(async () => (await import('../pages/tokens/TokensPage.tsx')).TokensPage);
const WorkspacesPage = lazyPage(
  async () => (await import('../pages/workspaces/WorkspacesPage.tsx')).WorkspacesPage,
);
const WorkspacePage = lazyPage(
  async () => (await import('../pages/workspaces/WorkspacePage.tsx')).WorkspacePage,
);
const FormBuilderPage = lazyPage(
  async () => (await import('../pages/form-builder/FormBuilderPage.tsx')).FormBuilderPage,
);
export const SubmissionsPage = lazyPage(
  async () => (await import('../pages/submissions/SubmissionsPage.tsx')).SubmissionsPage,
);
const MapPage = lazyPage(async () => (await import('../pages/project-data/MapPage.tsx')).MapPage);
const ExportsPage = lazyPage(async () => (await import('../pages/project-data/ExportsPage.tsx')).ExportsPage);
const AppUsersPage = lazyPage(async () => (await import('../pages/app-users/AppUsersPage.tsx')).AppUsersPage);
const AnalysesPage = lazyPage(
  async () => (await import('../pages/project-data/AnalysesPage.tsx')).AnalysesPage,
);
export const CollectPage = lazyPage(
  async () => (await import('../pages/collect/CollectPage.tsx')).CollectPage,
);
const EventsPage = lazyPage(async () => (await import('../pages/events/EventsPage.tsx')).EventsPage);
const InvitesPage = lazyPage(async () => (await import('../pages/invites/InvitesPage.tsx')).InvitesPage);
const AttendancePage = lazyPage(
  async () => (await import('../pages/attendance/AttendancePage.tsx')).AttendancePage,
);
const DevicesPage = lazyPage(async () => (await import('../pages/events/DevicesPage.tsx')).DevicesPage);
const GatesPage = lazyPage(async () => (await import('../pages/gates/GatesPage.tsx')).GatesPage);
const ScannerPage = lazyPage(async () => (await import('../pages/scan/ScannerPage.tsx')).ScannerPage);
const ScanSetupPage = lazyPage(async () => (await import('../pages/scan/ScanSetupPage.tsx')).ScanSetupPage);
const WebhooksPage = lazyPage(async () => (await import('../pages/webhooks/WebhooksPage.tsx')).WebhooksPage);
const NotFoundPage = lazyPage(async () => (await import('../pages/NotFoundPage.tsx')).NotFoundPage);

/**
 * The console's pages: public ones (sign-in, register, voting, live results) in the slim public
 * frame; the others in the signed-in console frame, which sends signed-out visitors to sign-in.
 */
export function AppRoutes() {
  return (
    <Routes>
      {/* The door scanner is full screen, on a device credential: no frame, no user session. */}
      <Route path="/scan/setup" element={<ScanSetupPage />} />
      <Route path="/scan/:eventId" element={<ScannerPage />} />
      {/* A poll framed by another site: no frame of ours either (docs/polls.md, "Embedding"). */}
      <Route path="/p/:pollId/embed" element={<EmbedPage />} />
      <Route element={<PublicLayout />}>
        <Route path="/p/:pollId" element={<VotePage />} />
        <Route path="/p/:pollId/results" element={<ResultsPage />} />
        <Route path="/f/:projectId" element={<CollectPage />} />
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        {/* Signed out: what Fieldhouse does; signed in: on to the start page. */}
        <Route index element={<HomePage />} />
      </Route>
      <Route element={<ConsoleLayout />}>
        <Route path="/start" element={<StartPage />} />
        <Route path="/polls" element={<PollsPage />} />
        <Route path="/polls/new" element={<PollEditorPage />} />
        <Route path="/polls/:pollId/edit" element={<PollEditorPage />} />
        <Route path="/workspaces" element={<WorkspacesPage />} />
        <Route path="/workspaces/:workspaceId" element={<WorkspacePage />} />
        <Route path="/projects/:projectId" element={<Navigate to="submissions" replace />} />
        <Route path="/projects/:projectId/form" element={<FormBuilderPage />} />
        <Route path="/projects/:projectId/submissions" element={<SubmissionsPage />} />
        <Route path="/projects/:projectId/map" element={<MapPage />} />
        <Route path="/projects/:projectId/exports" element={<ExportsPage />} />
        <Route path="/projects/:projectId/app-users" element={<AppUsersPage />} />
        <Route path="/projects/:projectId/analyses" element={<AnalysesPage />} />
        <Route path="/events" element={<EventsPage />} />
        <Route path="/events/:eventId/invites" element={<InvitesPage />} />
        <Route path="/events/:eventId/devices" element={<DevicesPage />} />
        <Route path="/events/:eventId/gates" element={<GatesPage />} />
        <Route path="/events/:eventId/attendance" element={<AttendancePage />} />
        <Route path="/settings/tokens" element={<TokensPage />} />
        <Route path="/settings/profile" element={<ProfilePage />} />
        <Route path="/settings/password" element={<PasswordPage />} />
        {/* /workspaces/{id}/webhooks, /polls/{id}/webhooks, /events/{id}/webhooks (one entry: the voting page's budget). */}
        <Route path="/:area/:scopeId/webhooks/:webhookId?" element={<WebhooksPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
