/**
 * The page in headless Chromium: every case played by clicking, its outcome and elapsed time
 * checked as shown, 20 times faster than life (the gift sent during a hop among them: applied
 * once). Then the crash case at the page's own pace (four
 * times faster than life, about 5 s), whose picture is saved to the temporary folder (README's
 * docs/try-it.png comes from `scripts/screenshot.mjs`, the same case). Last, the page in Redis
 * mode (the test run's redis-server): the live hand-over, the crash and the older-build holder
 * on real game servers. And while a case plays, no click starts a second run.
 */
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startDemoServer } from '../../src/http-server.js';
import { MemoryCaseRunner } from '../../src/memory/memory-runner.js';
import { PUBLIC_DIR } from '../../src/public-dir.js';
import { RedisCaseRunner } from '../../src/redis/redis-runner.js';
import { type Browser, launchChromium } from '../support/chromium.js';
import { EXPECTED } from '../support/expected.js';

const SPEED = 20;
const SCREENSHOT = join(tmpdir(), 'try-it.png');

let server: RunningServer;
let launched: Promise<Browser> | undefined;

/** Chromium, launched by the first test that needs it: a missing browser fails that test. */
async function newPage(): Promise<Page> {
  launched ??= launchChromium();
  return (await launched).context.newPage();
}

beforeAll(async () => {
  server = await startDemoServer({
    runner: new MemoryCaseRunner(),
    publicDir: PUBLIC_DIR,
    port: 0,
  });
});

afterAll(async () => {
  await (await launched?.catch(() => undefined))?.close();
  await server.close();
});

/** Plays a case by clicking it, and returns what the page shows when it is done. */
async function playCase(page: Page, caseId: string, timeout = 10_000) {
  await page.click(`button.case[data-case="${caseId}"]`);
  await page.waitForSelector('#outcome[data-state="done"], #outcome[data-state="error"]', {
    timeout,
  });
  return {
    outcome: await page.textContent('#outcome strong'),
    note: await page.textContent('#outcome .outcome-note'),
    clock: await page.textContent('#clock'),
    current: await page.getAttribute(`button.case[data-case="${caseId}"]`, 'aria-current'),
    rows: await Promise.all(
      (await page.locator('#log tbody tr').all()).map((row) => row.getAttribute('data-type')),
    ),
    marks: await page.locator('#lanes .mark').count(),
    logScrollTop: await page.$eval('#log-box', (box) => box.scrollTop),
  };
}

describe('the Try it page in headless Chromium', () => {
  it('plays every case by clicking and shows its outcome and exact times', async () => {
    const page = await newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${server.url}?speed=${SPEED}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#mode')).toBe('in-memory');
    for (const expected of EXPECTED) {
      const shown = await playCase(page, expected.id);
      expect(shown.outcome, expected.id).toBe(expected.outcome);
      expect(shown.clock, expected.id).toBe(expected.clock);
      expect(shown.current).toBe('true');
      expect(shown.rows.at(-1)).toMatch(/^(load\.loaded|profile\.kicked)$/);
      expect(shown.marks).toBe(shown.rows.length);
      // The clock shows the whole case; the note says where the wait in the headline starts.
      const waitStartsAt =
        expected.id === 'crashed-holder' ? 'the crashed holder’s last beat' : 'the join';
      expect(shown.note, expected.id).toContain(
        `The wait counts from ${waitStartsAt}, at ${expected.waitStartsAt} on the case clock.`,
      );
      // The log reads from its first row: nothing scrolled it to the end.
      expect(shown.logScrollTop, expected.id).toBe(0);
      if (expected.id === 'crashed-holder') {
        expect(shown.rows).toContain('server.crashed');
        expect(await page.locator('#lanes .lane-silence').count()).toBe(1);
      }
      if (expected.id === 'gift-during-hop') {
        // The gift sent during the hop, then applied once: one save of it, by B at its load.
        expect(shown.rows).toContain('gift.sent');
        expect(shown.rows.filter((type) => type === 'profile.saved')).toHaveLength(1);
        expect(await page.textContent('#case-group')).toBe('Messages');
      }
      if (expected.id === 'live-holder') {
        // The request from B to A and the reply back, drawn between the lanes.
        expect(await page.locator('#lanes .lane-links line').count()).toBe(2);
      }
    }
    expect(problems).toEqual([]);
    // The log box does scroll: the crash case's rows overflow it, so a scroll to the end shows.
    await playCase(page, 'crashed-holder');
    expect(await page.$eval('#log-box', (box) => box.scrollHeight > box.clientHeight)).toBe(true);
    expect(await page.$eval('#log-box', (box) => box.scrollTop)).toBe(0);
  }, 30_000);

  it('while a case plays, Play and the other cases are disabled, and no click starts a second run', async () => {
    const page = await newPage();
    const runs: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/run?')) runs.push(new URL(request.url()).pathname);
    });
    await page.goto(server.url); // real time: 15.10 s at four times faster, 3.8 s
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('button.case[data-case="older-holder"]');
    await page.waitForSelector('#outcome[data-state="running"]');
    expect(await page.isDisabled('#play')).toBe(true);
    for (const other of await page.locator('button.case:not([data-case="older-holder"])').all()) {
      expect(await other.isDisabled()).toBe(true);
    }
    // Clicks as a script would send them, past the disabled state: still one run.
    await page.locator('button.case[data-case="live-holder"]').dispatchEvent('click');
    await page.locator('#play').dispatchEvent('click');
    await page.click('#play', { force: true });
    expect(await page.textContent('#case-title')).toBe('A on an older build (handoff: false)');
    expect(await page.getAttribute('#outcome', 'data-state')).toBe('running');
    await page.waitForSelector('#outcome[data-state="done"]', { timeout: 15_000 });
    const older = EXPECTED.find((expected) => expected.id === 'older-holder');
    expect(await page.textContent('#outcome strong')).toBe(older?.outcome);
    expect(runs).toEqual(['/api/cases/older-holder/run']);
    // Over: Play plays again, and any case can be chosen.
    await page.waitForFunction("!document.querySelector('#play').disabled");
    expect(await page.textContent('#play')).toBe('Play again');
    expect(await page.isDisabled('button.case[data-case="live-holder"]')).toBe(false);
    expect(await page.textContent('#outcome .outcome-note')).toBe(
      'The rule’s wait: until the holder releases; after a crash, until the lock is lockTtlSeconds + lockSkewSeconds old. The wait counts from the join, at 0 ms on the case clock. Measured on the virtual clock.',
    );
  }, 30_000);

  it('plays the crash case four times faster than life, with the clock running', async () => {
    const page = await newPage();
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.inputValue('#speed')).toBe('1');
    const started = performance.now();
    await page.click('button.case[data-case="crashed-holder"]');
    // Mid-run: the elapsed clock has passed 2 s and the outcome is still to come.
    await page.waitForFunction(
      "Number.parseFloat(document.querySelector('#clock').textContent) >= 2",
    );
    expect(await page.getAttribute('#outcome', 'data-state')).toBe('running');
    await page.waitForSelector('#outcome[data-state="done"]', { timeout: 15_000 });
    // 19.27 s of story at four times: 4.8 s of wall time.
    expect(performance.now() - started).toBeGreaterThan(4500);
    expect(await page.textContent('#pace')).toBe('4× faster');
    const crash = EXPECTED.find((expected) => expected.id === 'crashed-holder');
    expect(await page.textContent('#outcome strong')).toBe(crash?.outcome);
    await page.waitForTimeout(1500); // the newest rows' highlight fades
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  }, 30_000);
});

describe('the Try it page in Redis mode, on real game servers', () => {
  let redisServer: RunningServer;

  beforeAll(async () => {
    redisServer = await startDemoServer({
      runner: await RedisCaseRunner.connect(inject('redisUrl')),
      publicDir: PUBLIC_DIR,
      port: 0,
    });
  });

  afterAll(async () => {
    await redisServer?.close();
  });

  it('says it runs on Redis, and plays the live hand-over, the crash and the older-build holder with real times', async () => {
    const page = await newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(redisServer.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.textContent('#mode')).toBe('Redis');
    expect(await page.textContent('#about')).toContain('real game-server processes');
    expect(await page.isHidden('#playback')).toBe(true); // real processes: no playback speed

    const live = await playCase(page, 'live-holder', 60_000);
    expect(live.outcome).toMatch(
      /^B loaded p1 after \d+ ms with 11 coins; A told the old connection “You joined another server\.”$/,
    );
    expect(live.note).toContain(
      'Measured on the servers’ clocks. Redis holds 11 coins, locked by B.',
    );
    expect(live.rows).toContain('profile.kicked');
    expect(live.rows.at(-1)).toBe('load.loaded');
    expect(await page.locator('#lanes .lane-links line').count()).toBeGreaterThanOrEqual(2);

    const crash = await playCase(page, 'crashed-holder', 60_000);
    expect(crash.outcome).toMatch(
      /^B took the lock \d\.\d+ s after A’s last beat \(\d+\.\d+ s at the default timings\), with 5 coins: A’s last save\.$/,
    );
    expect(crash.note).toContain('Redis holds 5 coins, locked by B.');
    expect(crash.rows).toContain('server.crashed');
    expect(crash.rows.slice(-2)).toEqual(['lock.taken', 'load.loaded']);
    expect(await page.locator('#lanes .lane-silence').count()).toBe(1);
    expect(await page.textContent('#pace')).toBe('4× faster');

    const older = await playCase(page, 'older-holder', 60_000);
    expect(older.outcome).toMatch(
      /^B kicked the player after \d\.\d+ s: “Your data is still in use on another server\. Please rejoin in a moment\.” A’s session plays on \(7 coins\): no request reached it\.$/,
    );
    expect(older.note).toContain('Redis holds 6 coins, locked by A, without the presence flag.');
    expect(older.rows).toContain('handoff.request.sent');
    expect(older.rows).not.toContain('presence.read');
    expect(older.rows.slice(-2)).toEqual(['load.failed', 'profile.kicked']);
    expect(problems).toEqual([]);
  }, 180_000);
});
