/**
 * What ODK Collect reads from a project QR code ("Configure with QR code"): its settings as JSON,
 * compressed with zlib (RFC 1950: the `deflate` format of the Compression Streams standard) and
 * encoded in base64, the way ODK Central's console writes them. `general.server_url` is the app
 * user's server address; `project.name` names the project on the phone; `admin` is left empty
 * (Collect's defaults). Forms are updated to match the server's, and sent once finished.
 */
export function collectSettings(serverUrl: string, projectName: string) {
  return {
    // The key is in the address: no user name or password (a user name would make Collect send
    // one with an empty password). Forms follow the server's, and finished forms are sent at once.
    general: { server_url: serverUrl, form_update_mode: 'match_exactly', autosend: 'wifi_and_cellular' },
    admin: {},
    project: { name: projectName },
  };
}

/** The QR code's text for {@link collectSettings}: zlib-compressed JSON, in base64. */
export async function collectQrText(settings: object): Promise<string> {
  const input = new Blob([JSON.stringify(settings)]).stream().pipeThrough(new CompressionStream('deflate'));
  const bytes = new Uint8Array(await new Response(input).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
