/**
 * The lock tokens drivers of this process hold, by key (`registry/tokens-here.ts`): what
 * `SessionRegistry.holdsToken` asks. With tokens new every load (as `createId` must make them)
 * it answers as the map from token to key before it did (registry.test.ts checks that through
 * the registry); a token used for two keys counts under each.
 */
import { describe, expect, it } from 'vitest';
import { TokensByKey } from '../src/registry/tokens-here.js';

/** Steps `+k:t` (hold t for k) and `-k:t` (t no longer held for k), separated by spaces. */
function run(steps: string): TokensByKey {
  const tokens = new TokensByKey();
  for (const step of steps.split(' ').filter(Boolean)) {
    const [key, token] = step.slice(1).split(':') as [string, string];
    if (step[0] === '+') tokens.add(key, token);
    else tokens.delete(key, token);
  }
  return tokens;
}

describe('the lock tokens held in this process, by key', () => {
  const cases: ReadonlyArray<readonly [string, string, string, string, boolean]> = [
    ['none held', '', 'a', 't1', false],
    ['one held', '+a:t1', 'a', 't1', true],
    ['a token held for another key is not held for this one', '+a:t1', 'b', 't1', false],
    ['another token of the key is not held', '+a:t1', 'a', 't2', false],
    ['held twice (a load, then its session), let go once', '+a:t1 +a:t1 -a:t1', 'a', 't1', false],
    ['two tokens of one key: the first', '+a:t1 +a:t2', 'a', 't1', true],
    ['two tokens of one key: the second', '+a:t1 +a:t2', 'a', 't2', true],
    ['two tokens, the first let go', '+a:t1 +a:t2 -a:t1', 'a', 't1', false],
    ['two tokens, the first let go: the second still held', '+a:t1 +a:t2 -a:t1', 'a', 't2', true],
    ['three tokens, the middle let go: the last held', '+a:t1 +a:t2 +a:t3 -a:t2', 'a', 't3', true],
    ['three tokens, the middle let go', '+a:t1 +a:t2 +a:t3 -a:t2', 'a', 't2', false],
    [
      'a third added twice, the others let go',
      '+a:t1 +a:t2 +a:t3 +a:t3 -a:t1 -a:t2',
      'a',
      't3',
      true,
    ],
    ['a token never held let go: the key keeps its own', '+a:t1 -a:t9', 'a', 't1', true],
    ['let go under another key (one token, two keys): still held', '+a:t1 -b:t1', 'a', 't1', true],
    ['all let go, then held again', '+a:t1 +a:t2 -a:t2 -a:t1 +a:t3', 'a', 't3', true],
    ['a key named __proto__', '+__proto__:t1', '__proto__', 't1', true],
    ['a key named constructor, not held', '+a:t1', 'constructor', 't1', false],
  ];

  it.each(cases)('%s', (_, steps, key, token, held) => {
    expect(run(steps).has(key, token)).toBe(held);
  });
});
