import type { EmailRequested } from '@fieldhouse/contracts';
import type { RecipientPreferences } from '../data/users.ts';
import { escapeHtml, localTime, zoneOrUtc, type EmailLanguage } from './submission-email.ts';

/** What an export e-mail says: the job, its project, and how it ended. */
export interface ExportOutcome {
  exportId: string;
  projectId: number;
  projectName: string;
  /** `csv`, `xlsx`, `geojson` or `zip`. */
  format: string;
  /** When the export was requested. */
  requestedAt: Date;
  outcome: 'completed' | 'failed';
  /** Completed: how many rows were written; failed: the error (the service's words, as stored). */
  rows?: number;
  error?: string;
}

const TEXTS = {
  en: {
    subject: (o: ExportOutcome) =>
      o.outcome === 'completed'
        ? `Your export of ${o.projectName} is ready`
        : `Your export of ${o.projectName} failed`,
    body: (o: ExportOutcome, when: string) =>
      o.outcome === 'completed'
        ? `The ${o.format.toUpperCase()} export of project "${o.projectName}" you requested on ${when} is ready: ` +
          `${o.rows ?? 0} row${o.rows === 1 ? '' : 's'}.`
        : `The ${o.format.toUpperCase()} export of project "${o.projectName}" you requested on ${when} failed: ${o.error ?? ''}`,
    download: 'Download it before it expires (signed in as the requester or a manager of the workspace)',
    open: "The project's exports in Fieldhouse",
    colon: ':',
    id: 'Export id',
  },
  fr: {
    subject: (o: ExportOutcome) =>
      o.outcome === 'completed'
        ? `Votre export de ${o.projectName} est prêt`
        : `Votre export de ${o.projectName} a échoué`,
    body: (o: ExportOutcome, when: string) =>
      o.outcome === 'completed'
        ? `L’export ${o.format.toUpperCase()} du projet « ${o.projectName} » demandé le ${when} est prêt : ` +
          `${o.rows ?? 0} ligne${(o.rows ?? 0) > 1 ? 's' : ''}.`
        : `L’export ${o.format.toUpperCase()} du projet « ${o.projectName} » demandé le ${when} a échoué : ${o.error ?? ''}`,
    download:
      'Téléchargez-le avant son expiration (connecté en tant que demandeur ou responsable de l’espace de travail)',
    open: 'Les exports du projet dans Fieldhouse',
    colon: ' :',
    id: 'Identifiant de l’export',
  },
};

/** The console's page of a project's exports. */
const exportsLink = (publicUrl: string, projectId: number) => `${publicUrl}/projects/${projectId}/exports`;

/**
 * The e-mail to the requester of an export that ended (spec 6; docs/errors.md, "E-mails in the
 * recipient's language"): in the requester's language (`en`/`fr` from the users projection,
 * else English), the request time in words in their time zone (else UTC), the download link
 * (`<publicUrl>/api/v1/exports/<id>/download`) when it completed, and a link to the project's
 * exports page in the console (`<publicUrl>/projects/<id>/exports`).
 */
export function exportEmail(
  requester: RecipientPreferences,
  o: ExportOutcome,
  publicUrl: string,
): EmailRequested {
  const language: EmailLanguage = requester.language === 'fr' ? 'fr' : 'en';
  const t = TEXTS[language];
  const body = t.body(o, localTime(o.requestedAt, language, zoneOrUtc(requester.time_zone)));
  const page = exportsLink(publicUrl, o.projectId);
  const download = `${publicUrl}/api/v1/exports/${o.exportId}/download`;
  const done = o.outcome === 'completed';
  return {
    to: [requester.email],
    subject: t.subject(o),
    text:
      `${body}\n\n` +
      (done ? `${t.download}${t.colon} ${download}\n\n` : '') +
      `${t.open}${t.colon} ${page}\n\n${t.id}${t.colon} ${o.exportId}\n\nFieldhouse`,
    html:
      `<p>${escapeHtml(body)}</p>` +
      (done
        ? `<p>${escapeHtml(t.download)}${t.colon} <a href="${escapeHtml(download)}">${escapeHtml(download)}</a></p>`
        : '') +
      `<p><a href="${escapeHtml(page)}">${escapeHtml(t.open)}</a></p><p>${escapeHtml(page)}</p>` +
      `<p>${escapeHtml(t.id)}${t.colon} ${escapeHtml(o.exportId)}</p><p>Fieldhouse</p>`,
    reason: done ? 'export-completed' : 'export-failed',
  };
}
