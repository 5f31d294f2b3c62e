/**
 * A scanned or typed invitation code in the form the service compares (docs/events.md: case
 * ignored, spaces and dashes removed), or why it cannot be one: `empty`, `too_long` (over 64
 * characters, or 256 for a signed code `FH1...`, as the service refuses) or `not_a_code` (anything but letters and digits), so a
 * stray scan of another barcode is answered at once, without a request.
 */
export function readScannedCode(
  raw: string,
): { code: string } | { problem: 'empty' | 'too_long' | 'not_a_code' } {
  const code = raw.replace(/[\s-]/g, '').toUpperCase();
  if (!code) return { problem: 'empty' };
  if (code.length > (code.startsWith('FH1') ? 256 : 64)) return { problem: 'too_long' };
  if (!/^[A-Z0-9]+$/.test(code)) return { problem: 'not_a_code' };
  return { code };
}
