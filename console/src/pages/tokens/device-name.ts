import Bowser from 'bowser';

/**
 * A session's `User-Agent` as people name their devices: "Chrome 156 on Linux", "Safari on
 * iOS 18.2" (bowser reads it). Undefined when the header is missing; the raw text when bowser
 * recognises neither the browser nor the system.
 */
export function deviceName(userAgent: string | null | undefined): string | undefined {
  if (!userAgent) return undefined;
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = [parsed.browser.name, major].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.name === 'Linux' ? '' : parsed.os.version].filter(Boolean).join(' ');
  if (!browser && !os) return userAgent;
  return browser && os ? `${browser} · ${os}` : browser || os;
}
