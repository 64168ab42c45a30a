/**
 * The VitePress configuration of the documentation site (`docs/.vitepress/config.ts` re-exports
 * it, so that its imports resolve from this package). The pages are `docs/`; the build goes to
 * this package's `dist`, VitePress's cache under its node_modules, so `docs/` holds pages only.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DefaultTheme, UserConfig } from 'vitepress';
import { readContents } from './contents.js';

export const REPOSITORY = 'https://github.com/datadriver/datadriver';

type VitePlugin = NonNullable<NonNullable<UserConfig['vite']>['plugins']>[number];

/** This file: bare imports re-resolved from here find this package's dependencies. */
const here = fileURLToPath(import.meta.url);

/**
 * The pages sit in docs/, outside this package, where `vue` does not resolve: the compiled
 * pages' imports of `vue` (and, for the server render, `vue/server-renderer`) are resolved as if
 * made from this package, by Vite's own rules (so each build gets its usual entry), reaching
 * the very copy VitePress depends on.
 */
const vueFromThisPackage: VitePlugin = {
  name: 'datadriver-docs:vue-from-docs-site',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!/^vue(\/|$)/.test(source) || !importer?.startsWith(docsDir)) return null;
    return this.resolve(source, here, { ...options, skipSelf: true });
  },
};

const docsDir = fileURLToPath(new URL('../../../docs/', import.meta.url));
const contents = readContents(readFileSync(`${docsDir}index.md`, 'utf8'));

const sidebar: DefaultTheme.SidebarItem[] = [
  { text: 'Contents', link: '/' },
  ...contents.map((section) => ({
    text: section.text,
    items: section.items.map((page) => ({ text: page.text, link: page.link })),
  })),
];

const config: UserConfig<DefaultTheme.Config> = {
  title: 'DataDriver',
  description:
    "Game players' profiles safe across a fleet of servers: session locks, lock handoff, presence, trades.",
  // Relative to docs/, the site's source.
  outDir: '../tools/docs-site/dist',
  cacheDir: '../tools/docs-site/node_modules/.vitepress-cache',
  srcExclude: ['**/node_modules/**'],
  // The demo's address (http://localhost:8080) is a page of `pnpm demo`, not of this site.
  ignoreDeadLinks: 'localhostLinks',
  lastUpdated: false,
  // Reference pages hold wide tables (an option, its type, default and effect): a page without
  // the outline aside (`aside: false` in its front matter) takes the width of the window.
  head: [
    [
      'style',
      {},
      '@media (min-width: 960px) { .VPDoc:not(.has-aside) .container, .VPDoc:not(.has-aside) .content-container { max-width: 1280px !important; } .VPDoc:not(.has-aside) .vp-doc td:last-child { min-width: 24em; } }',
    ],
  ],
  vite: { plugins: [vueFromThisPackage] },
  themeConfig: {
    nav: contents.map((section) => ({ text: section.text, link: section.items[0]!.link })),
    sidebar,
    outline: { level: [2, 3] },
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: REPOSITORY }],
  },
};

export default config;
