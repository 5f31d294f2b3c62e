import type { EmailRequested } from '@fieldhouse/contracts';
import { qrPng } from './qr.ts';

export interface InvitationFacts {
  nom: string;
  email: string;
  code_unique: string;
  event: { name: string; start_date: string; location: string };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The invitation e-mail job (`email.requested`, reason `invitation`): a text and an HTML part
 * with the event, the code, and the QR code as a PNG attachment (`qr-<code>.png`) shown inline
 * in the HTML through `cid:qr`.
 */
export async function invitationEmail(f: InvitationFacts): Promise<EmailRequested> {
  const png = await qrPng(f.code_unique);
  const when = f.event.start_date.replace('T', ' ');
  const text =
    `Hello ${f.nom},\n\nYou are invited to ${f.event.name}, ${when}, ${f.event.location}.\n` +
    `Show the attached QR code at the entrance, or give this code: ${f.code_unique}\n`;
  const html =
    `<p>Hello ${escapeHtml(f.nom)},</p>` +
    `<p>You are invited to <strong>${escapeHtml(f.event.name)}</strong>, ${escapeHtml(when)}, ` +
    `${escapeHtml(f.event.location)}.</p>` +
    `<p>Show this QR code at the entrance:</p><p><img src="cid:qr" alt="QR code" width="300" height="300"></p>` +
    `<p>Or give this code: <code>${f.code_unique}</code></p>`;
  return {
    to: [f.email],
    subject: `Your invitation: ${f.event.name}`,
    text,
    html,
    reason: 'invitation',
    attachments: [
      {
        filename: `qr-${f.code_unique}.png`,
        contentType: 'image/png',
        contentBase64: png.toString('base64'),
        cid: 'qr',
      },
    ],
  };
}
