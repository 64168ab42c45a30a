// What the JSON check's per-key test costs on a real game's record: reading each key's
// property descriptor (what `rules/json-problems.ts` does, one small object per key) against
// tests that allocate nothing (`propertyIsEnumerable`, `__lookupGetter__`, `__lookupSetter__`).
// The data is `core-only-cycle.mjs`'s 16 KB inventory (349 items of three fields); each walk
// lists every object's keys and tests each key, as the check does. Prints µs per walk (wall
// time, so the collector's share of the descriptors counts).
//   node bench/scripts/json-check-accessors.mjs [rounds]   (each test in its own process, alternating)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [which, walksArg] = process.argv.slice(2);
const walks = Number(walksArg ?? 20_000);
const item = (index) => ({
  id: `item-${String(index).padStart(6, '0')}`,
  kind: 'sword',
  level: index % 50,
});
const data = { coins: 0, inventory: Array.from({ length: 349 }, (_, index) => item(index)) };
const {
  propertyIsEnumerable: isEnumerable,
  __lookupGetter__: lookupGetter,
  __lookupSetter__: lookupSetter,
} = Object.prototype;

/** 1: a getter or setter; 2: a field JSON would not list; 0: plain fields only. */
function byDescriptor(object) {
  const keys = Object.getOwnPropertyNames(object);
  for (let index = 0; index < keys.length; index += 1) {
    const descriptor = Object.getOwnPropertyDescriptor(object, keys[index]);
    if (descriptor && !('value' in descriptor)) return 1;
    if (descriptor && !descriptor.enumerable) return 2;
  }
  return 0;
}

function byLookups(object) {
  const keys = Object.getOwnPropertyNames(object);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index];
    if (!isEnumerable.call(object, key)) return 2;
    if (lookupGetter.call(object, key) !== undefined) return 1;
    if (lookupSetter.call(object, key) !== undefined) return 1;
  }
  return 0;
}

function walk(test) {
  let found = test(data);
  for (const entry of data.inventory) found += test(entry);
  return found;
}

function measure(name, test) {
  for (let round = 0; round < walks / 10; round += 1) walk(test); // warm up
  let found = 0;
  const start = process.hrtime.bigint();
  for (let round = 0; round < walks; round += 1) found += walk(test);
  const micros = Number(process.hrtime.bigint() - start) / 1e3 / walks;
  if (found !== 0) throw new Error(`${name} found a problem in plain data`);
  return micros;
}

const TESTS = { descriptor: byDescriptor, lookups: byLookups };

if (which in TESTS) {
  console.log(measure(which, TESTS[which]).toFixed(1));
} else {
  // Each test in a process of its own, alternating, so neither times the other's garbage.
  const rounds = Number(which ?? 3);
  for (let round = 1; round <= rounds; round += 1) {
    const line = Object.keys(TESTS).map((name) => {
      const script = fileURLToPath(import.meta.url);
      const micros = execFileSync(process.execPath, [script, name], { encoding: 'utf8' }).trim();
      return `${name} ${micros} µs a walk`;
    });
    console.log(`round ${round}  ${line.join('  ')}`);
  }
}
