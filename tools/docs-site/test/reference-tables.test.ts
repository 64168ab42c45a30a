/**
 * The reference tables say what core says: the options table has a row for every option of
 * `DataDriverOptions` (the list its checked block keeps against the type) and the defaults of
 * core's exported constants; the kick messages table has every `kickMessages` key with its
 * default message, word for word.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_KICK_MESSAGES, DEFAULT_TIMINGS, DEFAULTS } from '@datadriver/core';
import { describe, expect, it } from 'vitest';

const page = (path: string) =>
  readFileSync(new URL(`../../../docs/${path}`, import.meta.url), 'utf8');

/** Each table row's cells, by its first cell's code (`name` -> its cells), trimmed. */
function rows(markdown: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of markdown.split('\n')) {
    const cells = /^\|\s*`([^`]+)`\s*\|/.test(line)
      ? line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim())
      : undefined;
    if (cells) found.set(cells[0]!.replace(/`/g, ''), cells);
  }
  return found;
}

/** The keys of the `documented = { ... }` list a page's docs-check comment holds. */
function documentedKeys(markdown: string): string[] {
  const list = /const documented = \{([\s\S]*?)\}/.exec(markdown)?.[1] ?? '';
  return [...list.matchAll(/(\w+):\s*1/g)].map((match) => match[1]!);
}

describe('the options table', () => {
  const markdown = page('reference/options.md');
  const table = rows(markdown);

  it('has a row for every option its checked list keeps against DataDriverOptions', () => {
    const options = [...table.keys()].filter((name) => !name.includes('.'));
    expect(documentedKeys(markdown).length).toBeGreaterThanOrEqual(21);
    expect(options.sort()).toEqual(documentedKeys(markdown).sort());
  });

  it('gives core’s defaults', () => {
    for (const [name, value] of Object.entries(DEFAULTS)) {
      expect(table.get(name)?.[2], name).toMatch(new RegExp(`^\`${value}\``));
    }
    for (const [name, value] of Object.entries(DEFAULT_TIMINGS)) {
      expect(table.get(`timings.${name}`)?.[2], name).toBe(`\`${value}\``);
    }
  });
});

describe('the kick messages table', () => {
  const markdown = page('reference/kick-messages.md');
  const table = rows(markdown);

  it('has every kickMessages key, with core’s default message word for word', () => {
    expect([...table.keys()].sort()).toEqual(Object.keys(DEFAULT_KICK_MESSAGES).sort());
    expect(documentedKeys(markdown).sort()).toEqual(Object.keys(DEFAULT_KICK_MESSAGES).sort());
    for (const [key, message] of Object.entries(DEFAULT_KICK_MESSAGES)) {
      expect(table.get(key)?.[1], key).toBe(message);
    }
  });
});
