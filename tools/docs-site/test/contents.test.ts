/** The sidebar comes from the table of contents: its sections and pages, in order, and nothing else. */
import { describe, expect, it } from 'vitest';
import { readContents } from '../src/contents.js';

const INDEX = [
  '# DataDriver documentation',
  '',
  'Read [concepts](guide/concepts.md) first.',
  '',
  '## Guide',
  '',
  '- [Concepts](guide/concepts.md): a glossary',
  '- [Set up](guide/setup.md)',
  '  continued description, not a page',
  '<!-- More guide pages go here. -->',
  '',
  '## Reference',
  '- [Options](reference/options.md): every option',
  '- [GitHub](https://github.com/datadriver/datadriver/blob/main/README.md)',
  '',
  '## Empty',
  '',
  'Only prose here.',
].join('\n');

describe('readContents', () => {
  it('makes a group of each section and a page of each listed .md, in order', () => {
    expect(readContents(INDEX)).toEqual([
      {
        text: 'Guide',
        items: [
          { text: 'Concepts', link: '/guide/concepts' },
          { text: 'Set up', link: '/guide/setup' },
        ],
      },
      { text: 'Reference', items: [{ text: 'Options', link: '/reference/options' }] },
    ]);
  });
});
