/**
 * The cases table (docs/guide/concepts.md, once README's) states each wait "measured on the
 * virtual clock"; the page shows the same cases on the same backend, so the two must agree.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatMs } from '../src/format.js';
import { EXPECTED } from './support/expected.js';

/** The table's row of each case, and how that row writes the wait. */
const ROWS: Record<string, { readonly row: string; readonly measured: (ms: number) => string }> = {
  'live-holder': { row: 'another server, player still connected there', measured: formatMs },
  'failed-release': { row: 'another server, leave save failed there', measured: formatMs },
  'crashed-holder': {
    row: 'another server crashed',
    measured: (ms) => `${formatMs(ms)} after the last beat`,
  },
  'stalled-holder': {
    row: 'another server alive, saves stalling',
    measured: (ms) => `${formatMs(ms)}, then kick`,
  },
  'older-holder': {
    row: 'holder on an older build, or `handoff: false`',
    measured: (ms) => `${ms / 1000} s, then kick`,
  },
  'same-server-saving': { row: 'same server, leave save still running', measured: formatMs },
  'same-server-adopt': { row: 'same server, leave save failed', measured: formatMs },
};

async function tableRows(): Promise<string[]> {
  const page = new URL('../../../docs/guide/concepts.md', import.meta.url);
  return (await readFile(page, 'utf8')).split('\n').filter((text) => text.startsWith('| '));
}

describe('the cases table', () => {
  // The messages case (a gift during a hop) is no row of the lock handoff cases table.
  const handoffCases = EXPECTED.filter((expected) => expected.id !== 'gift-during-hop');

  it('has a row for every lock handoff case of the page', () => {
    expect(handoffCases.map((expected) => expected.id)).toEqual(Object.keys(ROWS));
  });

  it.each(handoffCases)('states the wait the page shows for $id', async (expected) => {
    const { row, measured } = ROWS[expected.id]!;
    const line = (await tableRows()).find((text) => text.startsWith(`| ${row} `));
    expect(line, `docs/guide/concepts.md has a row "${row}"`).toBeDefined();
    const cells = line!.split('|').map((cell) => cell.trim());
    expect(cells.at(-2)).toContain(measured(expected.waitedMs));
  });
});
