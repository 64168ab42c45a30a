// What one object of each kind a cycle makes holds on the heap, on this Node (whose heap may
// or may not compress pointers): each kind made 200,000 times and kept, the heap measured
// after a full collection before and after, per object (the keeping array's slot taken off).
//   node --expose-gc bench/scripts/object-sizes.mjs
// Why: core's cycle was cut by counting closures. A closure made per call is a function and,
// unless another closure of the same call made it already, the scope it keeps.
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const COUNT = 200_000;
const kept = [];

function bytesEach(make) {
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const made = new Array(COUNT);
  for (let i = 0; i < COUNT; i++) made[i] = make(i);
  kept.push(made); // kept past the second reading, so none is collected
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const slot = made.length > 0 ? (after - before) / COUNT - bytesPerSlot() : 0;
  return slot.toFixed(0);
}

let slotBytes;
function bytesPerSlot() {
  if (slotBytes !== undefined) return slotBytes;
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const slots = new Array(COUNT).fill(0);
  kept.push(slots);
  globalThis.gc();
  slotBytes = (process.memoryUsage().heapUsed - before) / COUNT;
  return slotBytes;
}

/** An object with three arrow fields, as a guarded update had for each write. */
class ThreeCallbacks {
  #value = 0;
  transform = (x) => x + this.#value;
  stored = (x) => x - this.#value;
  failed = (x) => x * this.#value;
}

/** The same object with no callbacks. */
class NoCallbacks {
  #value = 0;
  get value() {
    return this.#value;
  }
}

const kinds = [
  ['a closure with its scope (one captured value)', (i) => () => i],
  ['an object of three fields', (i) => ({ a: i, b: i, c: i })],
  ['a resolved promise', (i) => Promise.resolve(i)],
  ['an object with three arrow fields', () => new ThreeCallbacks()],
  ['the same object with none', () => new NoCallbacks()],
];
for (const [name, make] of kinds) console.log(`${bytesEach(make).padStart(5)} B  ${name}`);
