import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (package `chromium`), or CHROMIUM_PATH. Playwright's own download cannot work here. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless Chromium that runs as root, offline, with nothing in the background. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches the system Chromium headless through Playwright (`extraArgs`: more flags, e.g. a
 * fake camera). Throws naming the Debian package to
 * install when it is missing: browser tests are never skipped.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}: install the Debian package \`chromium\` ` +
        '(apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.',
    );
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...FLAGS, ...extraArgs], headless: true });
}
