/**
 * What `pnpm fleet` suggests once it is up is a bot command the bot accepts, over every server
 * of the fleet; a fleet of one server suggests no bot command (the bot needs two to hop
 * between) but the fleet that would have them.
 */
import { botSuggestion } from '@datadriver/example-game-server/fleet';
import { describe, expect, it } from 'vitest';
import { parseBotArgs } from '../src/bot-args.js';

const urls = (count: number) =>
  Array.from({ length: count }, (_, index) => `ws://127.0.0.1:${7001 + index}`);

describe("pnpm fleet's bot suggestion", () => {
  it.each([2, 3, 26])(
    'a fleet of %i: the suggested command parses and names every server',
    (count) => {
      const commands = botSuggestion(urls(count)).filter((line) =>
        line.trim().startsWith('pnpm bot '),
      );
      expect(commands).toHaveLength(1);
      const argv = commands[0]!.trim().split(/\s+/).slice(2);
      expect(parseBotArgs(argv)).toMatchObject({ servers: urls(count), hops: 10 });
    },
  );

  it('a fleet of one: no bot command (the bot refuses one server), but a fleet it can play on', () => {
    expect(() => parseBotArgs(['--servers', urls(1)[0]!])).toThrow(/at least two servers/);
    const lines = botSuggestion(urls(1));
    expect(lines.some((line) => line.includes('pnpm bot'))).toBe(false);
    expect(lines).toContain('  pnpm fleet --count 2');
  });
});
