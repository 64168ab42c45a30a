#!/usr/bin/env node
/**
 * docs/try-it.png, the picture README and the guide show: the Try it page (the demo server
 * `pnpm demo` runs, on the in-memory backend) after it played the crash case at its own pace, in
 * headless Chromium (Debian's, as the page's end-to-end test drives it).
 *
 *   pnpm --filter @datadriver/example-try-it screenshot        (builds, then writes docs/try-it.png)
 *   node scripts/screenshot.mjs --url http://localhost:8080/  (a demo already running)
 *   node scripts/screenshot.mjs --case live-holder --out /tmp/live.png
 *
 * Needs dist/ built (`pnpm build`) and Chromium (`CHROMIUM_PATH`, else /usr/bin/chromium).
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '@datadriver/backends/chromium';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    case: { type: 'string', default: 'crashed-holder' },
    out: { type: 'string', default: resolve(here, '../../../docs/try-it.png') },
  },
});

/** `node dist/server.js --port 0`: the demo's own server; resolves with the URL it prints. */
function startDemo() {
  const child = spawn(process.execPath, [resolve(here, '../dist/server.js'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    let printed = '';
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the demo server exited (${code}): ${printed}`)));
    child.stdout.setEncoding('utf8').on('data', (text) => {
      printed += text;
      const url = /(http:\/\/\S+)/.exec(printed)?.[1];
      if (url) done({ url, stop: () => stopDemo(child) });
    });
  });
}

/** SIGTERM, as Ctrl-C stops `pnpm demo`; it exits once its streams are closed. */
function stopDemo(child) {
  if (child.exitCode !== null) return Promise.resolve();
  child.removeAllListeners('exit');
  return new Promise((done) => {
    child.once('exit', done);
    child.kill('SIGTERM');
  });
}

const demo = values.url ? { url: values.url, stop: async () => {} } : await startDemo();
const browser = await launchChromium({ name: 'try-it-screenshot' });
try {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(demo.url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.click(`button.case[data-case="${values.case}"]`);
  // The crash case plays about 5 s (four times faster than life); a stalled one, about 4 s.
  await page.waitForSelector('#outcome[data-state="done"]', { timeout: 60_000 });
  await page.waitForTimeout(1500); // the newest rows' highlight fades
  if (problems.length > 0) throw new Error(`the page failed: ${problems.join('; ')}`);
  await mkdir(dirname(values.out), { recursive: true });
  await page.screenshot({ path: values.out, fullPage: true });
  console.log(`${values.case}, as ${demo.url} shows it: ${values.out}`);
} finally {
  await browser.close();
  await demo.stop();
}
