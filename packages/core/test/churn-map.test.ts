/**
 * The registry's map of values that come and go (`ports/churn-map.ts`): a `Map`'s answers,
 * insertion order included, for every step a session, a load or a released snapshot takes.
 * What it is for (a deleted value kept by no table of V8's) is measured, not asserted here:
 * `bench/scripts/core-promotion-ab.sh` prints the bytes each scavenge promoted.
 */
import { describe, expect, it } from 'vitest';
import { ChurnMap } from '../src/ports/churn-map.js';

/**
 * Steps written `+a1` (set a to 1), `-a` (delete a), `!` (clear), and the one-lookup steps:
 * `&a1` (add: set a to 1 unless a is here), `=a1` (replace: set a to 1 as the last key), `<a`
 * (take a), `~a1` (delete a only while it is 1); separated by spaces. Each runs on a `Map` as
 * the steps it stands for, and the answers of both are kept.
 */
function run(steps: string) {
  const churn = new ChurnMap<string, number>();
  const map = new Map<string, number>();
  const answers: Array<[unknown, unknown]> = [];
  for (const step of steps.split(' ').filter(Boolean)) {
    const [op, key, value] = [
      step[0],
      step.slice(1).replace(/\d+$/, ''),
      Number(step.match(/\d+$/)?.[0]),
    ];
    if (op === '+') {
      churn.set(key, value);
      map.set(key, value);
    } else if (op === '-') {
      answers.push([churn.delete(key), map.delete(key)]);
    } else if (op === '&') {
      const absent = !map.has(key);
      if (absent) map.set(key, value);
      answers.push([churn.add(key, value), absent]);
    } else if (op === '=') {
      const old = map.get(key);
      map.delete(key);
      map.set(key, value);
      answers.push([churn.replace(key, value), old]);
    } else if (op === '<') {
      const old = map.get(key);
      map.delete(key);
      answers.push([churn.take(key), old]);
    } else if (op === '~') {
      const set = map.has(key) && map.get(key) === value;
      if (set) map.delete(key);
      answers.push([churn.deleteIfIs(key, value), set]);
    } else {
      churn.clear();
      map.clear();
    }
  }
  return { churn, map, answers };
}

describe('a map of values that come and go', () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['nothing set', ''],
    ['one set', '+a1'],
    ['a set key set again keeps its place', '+a1 +b2 +a3'],
    ['a deleted key set again goes last', '+a1 +b2 -a +a3'],
    ['a missing key deleted', '+a1 -z'],
    ['a key deleted twice', '+a1 -a -a'],
    ['cleared, then set', '+a1 +b2 ! +c3'],
    ['keys named __proto__ and constructor', '+__proto__1 +constructor2 -constructor'],
    ['added when missing', '+a1 &b2'],
    ['not added over a key here, which keeps its value and place', '+a1 +b2 &a3'],
    ['added again once deleted, going last', '+a1 +b2 -a &a3'],
    ['replaced, going last with the new value', '+a1 +b2 +c3 =a4'],
    ['replacing a missing key sets it', '+a1 =b2'],
    ['taken: its value given, the key gone', '+a1 +b2 <a'],
    ['taking a missing key', '+a1 <z'],
    ['taken, then set again, going last', '+a1 +b2 <a +a3'],
    ['deleted while set to the value given', '+a1 +b2 ~a1'],
    ['kept when set to another value', '+a1 +b2 ~a2'],
    ['deleting a missing key only if set', '+a1 ~z1'],
    ['__proto__ added, replaced and taken', '&__proto__1 =__proto__2 <__proto__'],
  ];

  it.each(cases)('answers as a Map does: %s', (_, steps) => {
    const { churn, map, answers } = run(steps);
    for (const [fromChurn, fromMap] of answers) expect(fromChurn).toBe(fromMap);
    expect(churn.size).toBe(map.size);
    expect(churn.valueList()).toEqual([...map.values()]);
    expect([...churn.keys()]).toEqual([...map.keys()]);
    for (const key of ['a', 'b', 'c', 'z', '__proto__', 'constructor']) {
      expect(churn.has(key)).toBe(map.has(key));
      expect(churn.get(key)).toBe(map.get(key));
    }
  });

  it('gives its values as a list made when asked: deleting while going through it is safe', () => {
    const churn = new ChurnMap<string, number>();
    churn.set('a', 1);
    churn.set('b', 2);
    churn.set('c', 3);
    const seen: number[] = [];
    for (const value of churn.valueList()) {
      seen.push(value);
      churn.delete('b');
      churn.delete('c');
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(churn.valueList()).toEqual([1]);
  });

  it('gives its keys as it goes: deleting the key just given, the loop goes on to the next', () => {
    const churn = new ChurnMap<string, number>();
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) churn.set(key, index);
    const seen: string[] = [];
    for (const key of churn.keys()) {
      seen.push(key);
      if (key !== 'c') churn.delete(key);
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect([...churn.keys()]).toEqual(['c']);
  });

  it('ends with the surviving keys and their latest values after thousands set and deleted in turn', () => {
    const churn = new ChurnMap<string, number>();
    for (let round = 0; round < 50; round++) {
      for (let index = 0; index < 200; index++) churn.set(`k${index}`, round * 1000 + index);
      for (let index = 0; index < 200; index += 2) churn.delete(`k${index}`);
    }
    expect(churn.size).toBe(100);
    expect(churn.get('k1')).toBe(49_001);
    expect(churn.get('k0')).toBeUndefined();
    expect(churn.keys().next().value).toBe('k1');
  });
});
