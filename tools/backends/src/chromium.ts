/**
 * Debian's Chromium, driven by playwright-core (never `playwright install`), for the tests that
 * open a page: the Try it page and the documentation site. A missing browser fails the test with
 * how to install it: nothing is skipped, on CI or anywhere. A subpath of its own
 * (`@datadriver/backends/chromium`), so the backends' other users never load playwright-core.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import type { Env } from './backend.js';
import { isCi } from './ci.js';

const DEFAULT_PATH = '/usr/bin/chromium';

/** Headless, and quiet: no sandbox (containers), no GPU, no network of its own. */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** The browser to run (`CHROMIUM_PATH`, else /usr/bin/chromium), or an error that says how to get one. */
export function chromiumPath(env: Env = process.env): string {
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

export interface ChromiumOptions {
  /** Names the temporary profile folder (`<name>-chromium-...`), to tell runs apart. */
  readonly name?: string;
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** Chromium with a fresh profile, removed again on close. */
export async function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  const executablePath = chromiumPath();
  const userDataDir = await mkdtemp(join(tmpdir(), `${options.name ?? 'test'}-chromium-`));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { ...(options.viewport ?? { width: 1280, height: 900 }) },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
