import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureConsoleBuilt } from '@fieldhouse/console/ensure-built';
import { createMailer } from '@fieldhouse/mail';
import { startPollsEmailWorker } from '@fieldhouse/polls';
import { startSmtpSink, testLogger, type SmtpSink } from '@fieldhouse/testkit';
import { startStack, type TestStack } from '../../test/support/stack.ts';
import { launchChromium } from './chromium.ts';
import { VIEWPORTS } from './screenshots.ts';

/** The whole stack with the built console behind its gateway, an SMTP sink, and Chromium. */
export interface ConsoleStack {
  stack: TestStack;
  /** The gateway's URL: the console's origin. */
  baseUrl: string;
  /** Where the polls e-mail worker (one-time passwords) and the gateway (account e-mails) deliver. */
  sink: SmtpSink;
  browser: Browser;
  /** A fresh browser context (own cookies and storage) at the desktop viewport, English. */
  newContext: (opts?: { locale?: string; phone?: boolean }) => Promise<BrowserContext>;
  /** A page of a fresh context. */
  newPage: (opts?: { locale?: string; phone?: boolean }) => Promise<Page>;
  stop: () => Promise<void>;
}

/**
 * Builds the console if stale, starts the stack (gateway serving it and sending its account
 * e-mails to an SMTP sink, the three services, the polls e-mail worker writing to the same sink)
 * and launches Chromium. `gatewayEnv` overrides
 * gateway settings (rate limits default high; a test of 429 sets its own).
 */
export async function startConsoleStack(gatewayEnv: Record<string, string> = {}): Promise<ConsoleStack> {
  const consoleDir = await ensureConsoleBuilt(() => undefined);
  // The gateway's account e-mails (password reset, e-mail verification) go to the same sink.
  const sink = await startSmtpSink();
  const stack = await startStack({
    gatewayEnv: {
      CONSOLE_DIR: consoleDir,
      RATE_LIMIT_IP: '100000',
      RATE_LIMIT_USER: '100000',
      // No internet in tests: no map tiles unless a test serves its own (MAP_TILE_URL).
      MAP_TILE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${sink.smtpPort}`,
      ...gatewayEnv,
    },
  });
  const mailer = createMailer(`smtp://127.0.0.1:${sink.smtpPort}`, 'Polls <polls@example.test>');
  const worker = await startPollsEmailWorker({
    broker: stack.polls.broker,
    mailer,
    db: stack.polls.db,
    logger: testLogger('polls-worker'),
  });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const newContext = async (opts: { locale?: string; phone?: boolean } = {}) => {
    const context = await browser.newContext({
      baseURL: stack.gatewayUrl,
      locale: opts.locale ?? 'en-GB',
      // Reduced motion: no transitions, so axe and screenshots see pages at rest.
      reducedMotion: 'reduce',
      viewport: opts.phone ? VIEWPORTS.phone : VIEWPORTS.desktop,
      ...(opts.phone ? { isMobile: true, hasTouch: true } : {}),
    });
    // Every wait is for a condition; its limit is generous because the test shards share the
    // cores (docs/testing.md): 10 s ran out under load while twenty reviews went through.
    context.setDefaultTimeout(30_000);
    contexts.push(context);
    return context;
  };
  return {
    stack,
    baseUrl: stack.gatewayUrl,
    sink,
    browser,
    newContext,
    newPage: async (opts) => (await newContext(opts)).newPage(),
    stop: async () => {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await worker.close();
      mailer.close();
      await sink.close();
      await stack.stop();
    },
  };
}
