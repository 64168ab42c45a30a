/**
 * The site's sidebar, read from the table of contents (`docs/index.md`): each `## Section` is a
 * group, each `- [Title](page.md)` under it a page. One list to keep, the one readers see on
 * GitHub too.
 */

export interface ContentsPage {
  readonly text: string;
  /** The page's path on the site, without extension: `/guide/concepts`. */
  readonly link: string;
}

export interface ContentsSection {
  readonly text: string;
  readonly items: readonly ContentsPage[];
}

const SECTION = /^##\s+(.+?)\s*$/;
const PAGE = /^-\s+\[([^\]]+)\]\(([^)#\s]+\.md)\)/;

/** The sections of `index.md` and their pages, in order; links outside the site are left out. */
export function readContents(indexMarkdown: string): ContentsSection[] {
  const sections: { text: string; items: ContentsPage[] }[] = [];
  for (const line of indexMarkdown.split('\n')) {
    const section = SECTION.exec(line);
    if (section) {
      sections.push({ text: section[1]!, items: [] });
      continue;
    }
    const page = PAGE.exec(line);
    const current = sections.at(-1);
    if (page && current && !/^[a-z]+:/i.test(page[2]!)) {
      current.items.push({ text: page[1]!, link: `/${page[2]!.replace(/\.md$/, '')}` });
    }
  }
  return sections.filter((section) => section.items.length > 0);
}
