/**
 * The registry's map of values that come and go (`ports/churn-map.ts`): a `Map`'s answers,
 * insertion order included, for every step a session, a load, a released snapshot or a lock
 * token takes, and a table that keeps a leaving key's slot. What that is for (no table rebuilt
 * in V8's old generation) is measured, not asserted here: `bench/scripts/core-promotion-ab.sh`
 * prints the bytes each scavenge promoted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChurnMap, SWEEP_FLOOR } from '../src/ports/churn-map.js';

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

const OPS = ['set', 'add', 'replace', 'delete', 'take', 'deleteIfIs'] as const;

describe('a map whose table stays still while the same keys come and go', () => {
  it('keeps a deleted key in its table, emptied, and fills that slot when the key comes back', () => {
    const churn = new ChurnMap<string, number>();
    for (const key of ['a', 'b', 'c']) churn.set(key, 1);
    for (let round = 0; round < 1_000; round++) {
      churn.delete('a');
      churn.take('b');
      churn.deleteIfIs('c', 1);
      expect(churn.slots).toBe(3);
      churn.add('a', 1);
      churn.replace('b', 1);
      churn.set('c', 1);
    }
    expect(churn.slots).toBe(3);
    expect(churn.size).toBe(3);
  });

  it('drops emptied slots from its table once they outnumber both the keys held and the floor', () => {
    const churn = new ChurnMap<string, number>();
    for (let index = 0; index < 10; index++) churn.set(`held${index}`, index);
    for (let index = 0; index < SWEEP_FLOOR; index++) {
      churn.set(`gone${index}`, index);
      churn.delete(`gone${index}`);
    }
    expect(churn.slots).toBe(10 + SWEEP_FLOOR); // at the floor: kept
    churn.set('one more', 0);
    churn.delete('one more');
    expect(churn.slots).toBe(10); // over it: every emptied slot dropped in one sweep
    expect([...churn.keys()]).toEqual(Array.from({ length: 10 }, (_, index) => `held${index}`));
  });

  it('sweeps only once the emptied slots also outnumber the keys held', () => {
    const churn = new ChurnMap<string, number>();
    const held = 2 * SWEEP_FLOOR;
    for (let index = 0; index < held; index++) churn.set(`held${index}`, index);
    for (let index = 0; index <= held; index++) {
      churn.set(`gone${index}`, index);
      churn.delete(`gone${index}`);
      expect(churn.slots).toBe(index === held ? held : held + index + 1);
    }
  });

  it('goes on past a key moved last as the loop gives it, and gives it again at the end, as a Map', () => {
    const churn = new ChurnMap<string, number>();
    const map = new Map<string, number>();
    for (const [index, key] of ['a', 'b', 'c'].entries()) {
      churn.set(key, index);
      map.set(key, index);
    }
    const seen = { churn: [] as string[], map: [] as string[] };
    for (const key of churn.keys()) {
      seen.churn.push(key);
      if (key === 'a' && seen.churn.length === 1) churn.replace('a', 9);
    }
    for (const key of map.keys()) {
      seen.map.push(key);
      if (key === 'a' && seen.map.length === 1) {
        map.delete('a');
        map.set('a', 9);
      }
    }
    expect(seen.churn).toEqual(['a', 'b', 'c', 'a']);
    expect(seen.churn).toEqual(seen.map);
  });

  it('answers as a Map does for any steps, its table swept as it goes (a floor of 2)', () => {
    const step = fc.tuple(
      // A clear now and then (1 step in 50): more often, and no table would fill to a sweep.
      fc
        .integer({ min: 0, max: 49 })
        .map((n) => (n === 0 ? 'clear' : OPS[n % OPS.length]) as (typeof OPS)[number] | 'clear'),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 2 }),
    );
    let sweeps = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 50, maxLength: 400 }), (steps) => {
        const churn = new ChurnMap<string, number | undefined>(2);
        let swept = false;
        const map = new Map<string, number | undefined>();
        for (const [op, index, number] of steps) {
          const slotsBefore = churn.slots;
          const key = index === 0 ? '__proto__' : `k${index}`;
          // A value may be `undefined`: a key set to it is still here.
          const value = number === 2 ? undefined : number;
          if (op === 'set') {
            churn.set(key, value);
            map.set(key, value);
          } else if (op === 'add') {
            expect(churn.add(key, value)).toBe(!map.has(key));
            if (!map.has(key)) map.set(key, value);
          } else if (op === 'replace') {
            expect(churn.replace(key, value)).toBe(map.get(key));
            map.delete(key);
            map.set(key, value);
          } else if (op === 'delete') {
            expect(churn.delete(key)).toBe(map.delete(key));
          } else if (op === 'take') {
            expect(churn.take(key)).toBe(map.get(key));
            map.delete(key);
          } else if (op === 'deleteIfIs') {
            const is = map.has(key) && map.get(key) === value;
            expect(churn.deleteIfIs(key, value)).toBe(is);
            if (is) map.delete(key);
          } else {
            churn.clear();
            map.clear();
          }
          expect(churn.has(key)).toBe(map.has(key));
          expect(churn.get(key)).toBe(map.get(key));
          expect(churn.size).toBe(map.size);
          expect(churn.firstKey()).toBe(map.keys().next().value);
          if (churn.slots < slotsBefore && op !== 'clear') swept = true;
        }
        expect([...churn.keys()]).toEqual([...map.keys()]);
        expect(churn.valueList()).toEqual([...map.values()]);
        expect(churn.slots).toBeLessThanOrEqual(map.size + Math.max(2, map.size));
        sweeps += swept ? 1 : 0;
      }),
      { numRuns: 300 },
    );
    expect(sweeps).toBeGreaterThan(100); // a third of the runs or more swept the table
  });
  it('gives the keys a Map gives to a loop that sets, deletes, replaces and clears as it goes', () => {
    const action = fc.tuple(
      fc
        .integer({ min: 0, max: 29 })
        .map((n) => (n === 0 ? 'clear' : (OPS[n % OPS.length] as string))),
      fc.integer({ min: 1, max: 8 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 8 }),
        fc.array(fc.array(action, { maxLength: 3 }), { minLength: 1, maxLength: 30 }),
        (initial, bodies) => {
          const churn = new ChurnMap<string, number>(2);
          const map = new Map<string, number>();
          for (const index of initial) {
            churn.set(`k${index}`, index);
            map.set(`k${index}`, index);
          }
          // Each loop runs the same body at its nth turn; both stop after as many turns.
          const loop = (keys: Iterable<string>, act: (op: string, key: string) => void) => {
            const given: string[] = [];
            for (const key of keys) {
              const body = bodies[given.length];
              given.push(key);
              if (body === undefined) break;
              for (const [op, index] of body) act(op, `k${index}`);
            }
            return given;
          };
          const fromChurn = loop(churn.keys(), (op, key) => {
            if (op === 'clear') churn.clear();
            else if (op === 'set' || op === 'add' || op === 'replace') churn[op](key, 1);
            else if (op === 'deleteIfIs') churn.deleteIfIs(key, 1);
            else churn[op as 'delete' | 'take'](key);
          });
          const fromMap = loop(map.keys(), (op, key) => {
            if (op === 'clear') map.clear();
            else if (op === 'set' || (op === 'add' && !map.has(key))) map.set(key, 1);
            else if (op === 'replace') {
              map.delete(key);
              map.set(key, 1);
            } else if (op === 'delete' || op === 'take') map.delete(key);
            else if (op === 'deleteIfIs' && map.get(key) === 1) map.delete(key);
          });
          expect(fromChurn).toEqual(fromMap);
          expect([...churn.keys()]).toEqual([...map.keys()]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
