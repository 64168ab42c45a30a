/**
 * Debian's Chromium, driven by playwright-core (never `playwright install`). A missing
 * browser fails the test with how to install it: nothing is skipped, on CI or anywhere.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

const DEFAULT_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** The browser to run, or an error that says how to get one. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.CHROMIUM_PATH || DEFAULT_PATH;
  if (existsSync(path)) return path;
  const install = '`apt-get install -y chromium`';
  const advice = isCi(env)
    ? `CI must provide it: add ${install} to .ci/run before the tests, or set CHROMIUM_PATH.`
    : `Install it with ${install}, or set CHROMIUM_PATH to a Chromium binary.`;
  throw new Error(`Chromium not found at ${path}; the end-to-end test needs it. ${advice}`);
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile, removed again on close. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  const userDataDir = await mkdtemp(join(tmpdir(), 'try-it-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
