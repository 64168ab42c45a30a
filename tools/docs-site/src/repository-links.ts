/**
 * Links from the site into the repository (`https://github.com/datadriver/datadriver/blob/main/
 * <path>#<anchor>`), checked against the files on disk: the path must exist, and an anchor into
 * a Markdown file must be one of its headings as GitHub names them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const REPOSITORY_FILE =
  /^https:\/\/github\.com\/datadriver\/datadriver\/(?:blob|tree)\/main\/([^#?]*)(?:#(.*))?$/;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code fences). */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = githubSlug(heading[1]!);
    let slug = base;
    for (let n = 1; slugs.has(slug); n += 1) slug = `${base}-${n}`;
    slugs.add(slug);
  }
  return slugs;
}

/**
 * Why a repository link is broken, or undefined when it is fine or not a link into the
 * repository at all (`isRepositoryLink` tells the two apart).
 */
export function repositoryLinkProblem(root: string, href: string): string | undefined {
  const match = REPOSITORY_FILE.exec(href);
  if (!match) return undefined;
  const [, path = '', anchor] = match;
  const onDisk = join(root, decodeURIComponent(path));
  if (!existsSync(onDisk)) return `${path} does not exist in the repository`;
  if (!anchor) return undefined;
  const file = statSync(onDisk).isDirectory() ? join(onDisk, 'README.md') : onDisk;
  if (!file.endsWith('.md') || !existsSync(file)) return undefined;
  if (!headingSlugs(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) {
    return `${path} has no heading #${anchor}`;
  }
  return undefined;
}

export function isRepositoryLink(href: string): boolean {
  return REPOSITORY_FILE.test(href);
}
