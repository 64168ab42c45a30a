/**
 * The built documentation site in headless Chromium: from the table of contents (the home page)
 * every page of docs/ is reached; on every page, every link within the site leads to a page or
 * file that exists and every anchor to an element on it, every link into the repository names
 * a file (and heading) that exists; the README's programs are included where the guide shows
 * them; the Try it page is embedded where the guide explains the cases; and a search finds.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, launchChromium } from '@datadriver/backends/chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRepositoryLink, repositoryLinkProblem } from '../src/repository-links.js';
import { type StaticSite, serveStatic } from '../src/static-server.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const docs = join(root, 'docs');

/** Every page of docs/ as the site serves it: `guide/concepts.md` -> `/guide/concepts.html`. */
function pagesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pagesOf(path);
    return entry.name.endsWith('.md') ? [`/${relative(docs, path).replace(/\.md$/, '.html')}`] : [];
  });
}

interface Visit {
  readonly ids: ReadonlySet<string>;
  readonly links: readonly string[];
  readonly title: string;
}

let site: StaticSite;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const visits = new Map<string, Visit>();

async function visit(path: string): Promise<Visit> {
  // The pages are rendered on the server: their links and anchors are in the HTML as loaded.
  const response = await page.goto(`${site.origin}${path}`, { waitUntil: 'domcontentloaded' });
  expect(response?.status(), `${path} is served`).toBe(200);
  await page.waitForSelector('.vp-doc h1');
  const found = await page.evaluate(() => ({
    ids: [...document.querySelectorAll('[id]')].map((element) => element.id),
    links: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
    // The heading's text without its anchor link's zero-width space.
    title: (document.querySelector('.vp-doc h1')?.textContent ?? '').replace(/\u200b/g, '').trim(),
  }));
  const result = { ids: new Set(found.ids), links: found.links, title: found.title };
  visits.set(path, result);
  return result;
}

beforeAll(async () => {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(
      `no built site in ${dist}: run \`pnpm docs:build\` first (turbo builds it before the test)`,
    );
  }
  site = await serveStatic(dist);
  browser = await launchChromium({ name: 'docs-site' });
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('the documentation site', () => {
  it('reaches every page of docs/ from the table of contents, and each has a title', async () => {
    const home = await visit('/');
    expect(home.title).toBe('DataDriver documentation');
    const contents = await page.$$eval('.vp-doc a[href]', (links) =>
      links.map((a) => new URL((a as HTMLAnchorElement).href)),
    );
    // The pages it lists (its own heading anchors lead back to "/").
    const listed = new Set(
      contents
        .filter((url) => url.origin === site.origin && url.pathname !== '/')
        .map((url) => url.pathname),
    );
    const pages = pagesOf(docs).filter((path) => path !== '/index.html');
    expect(pages.length).toBeGreaterThanOrEqual(20);
    expect([...listed].sort()).toEqual([...pages].sort());
    for (const path of pages) {
      const { title } = await visit(path);
      expect(title, `${path} has a title`).not.toBe('');
    }
    expect(pageErrors).toEqual([]);
  });

  it('has no broken link or anchor: within the site, and into the repository', () => {
    expect(visits.size).toBeGreaterThanOrEqual(21);
    const problems: string[] = [];
    let internal = 0;
    let repository = 0;
    for (const [from, { links }] of visits) {
      for (const href of links) {
        const url = new URL(href);
        if (url.origin === site.origin) {
          internal += 1;
          const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
          const target = visits.get(path === '/index.html' ? '/' : path);
          if (!target && !existsSync(join(dist, decodeURIComponent(path)))) {
            problems.push(`${from}: ${href} leads nowhere`);
          } else if (url.hash && !target?.ids.has(decodeURIComponent(url.hash.slice(1)))) {
            problems.push(`${from}: ${href} names no anchor on its page`);
          }
        } else if (isRepositoryLink(href)) {
          repository += 1;
          const problem = repositoryLinkProblem(root, href);
          if (problem) problems.push(`${from}: ${href}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(internal).toBeGreaterThan(500);
    expect(repository).toBeGreaterThan(10);
  });

  it('shows the README’s programs where the guide includes them', async () => {
    await visit('/guide/two-servers.html');
    expect(await page.textContent('.vp-doc')).toContain('async function playBoth()');
    await visit('/guide/setup.html');
    expect(await page.textContent('.vp-doc')).toContain('console.log(`user-42 has');
  });

  it('embeds the Try it page where the guide explains the cases', async () => {
    await visit('/guide/concepts.html');
    const frame = page.locator('#try-it ~ details iframe');
    expect(await frame.getAttribute('src')).toBe('http://localhost:8080/');
    expect(await page.locator('.vp-doc table').first().textContent()).toContain(
      'another server crashed',
    );
  });

  it('finds pages with its search', async () => {
    await visit('/');
    await page.click('.DocSearch-Button');
    await page.fill('#localsearch-input', 'presence');
    await page.waitForSelector('.results a.result');
    const results = await page.$$eval('.results a.result', (links) =>
      links.map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    expect(results.length).toBeGreaterThan(3);
    expect(results).toContain('/guide/concepts.html');
    await page.click('.results a.result');
    await page.waitForSelector('.vp-doc h1');
    expect(await page.textContent('.vp-doc')).toMatch(/presence/i);
  });
});
