/**
 * A `Map` for values that come and go all the time under keys that come back (a session, a
 * load, a released snapshot, a lock token, each by its player's key): it answers as a `Map`
 * does, insertion order included, but a key deleted stays in its table, so the table does not
 * change while the same keys come and go.
 *
 * Why: a `Map` whose entries are deleted and added again is rehashed into a new table now and
 * then. Once a map's table reached the old generation, V8 makes each new table there too, and
 * leaves the old one pointing to the new one and to what its entries held: garbage until the
 * next full collection, which every young-generation collection (a scavenge) until then treats
 * as alive, copying, then promoting, each value it held and all that value holds. On the memory
 * store, a load + save + release with 200 players in flight promoted 486 KB a scavenge that way
 * with the registry's maps, their lock tokens' and the released snapshots' deleting their keys;
 * 1 KB with none deleting (`node --trace-gc-nvp`; `bench/scripts/core-promotion-ab.sh`).
 *
 * So each key has a slot of its own that stays in the table once emptied, and the order is a
 * list through the slots rather than the table's. Emptied slots are dropped from the table only
 * once they outnumber both the keys here and `SWEEP_FLOOR` (a server's players come and go by
 * the thousand, most never to come back): one rehash for that many keys gone.
 */
export class ChurnMap<K, V> {
  readonly #slots = new Map<K, Slot<K, V>>();
  /** The first and last slot holding a value, in insertion order. */
  #first: Slot<K, V> | undefined;
  #last: Slot<K, V> | undefined;
  #size = 0;

  /** `sweepFloor`: emptied slots kept at least before they are dropped from the table. */
  constructor(private readonly sweepFloor = SWEEP_FLOOR) {}

  get size(): number {
    return this.#size;
  }

  /** Slots in its table, holding a value or emptied (for tests: what a key gone leaves). */
  get slots(): number {
    return this.#slots.size;
  }

  get(key: K): V | undefined {
    return this.#slots.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#slots.get(key)?.held === true;
  }

  /** Sets `key` to `value`; a key already here keeps its place in the order, as in a `Map`. */
  set(key: K, value: V): void {
    const slot = this.#slots.get(key);
    if (slot?.held) slot.value = value;
    else this.#fill(key, slot, value);
  }

  /**
   * Sets `key` to `value` only when `key` is not here: false, changing nothing, when it is.
   * One lookup fewer than `has`, then `set`.
   */
  add(key: K, value: V): boolean {
    const slot = this.#slots.get(key);
    if (slot?.held) return false;
    this.#fill(key, slot, value);
    return true;
  }

  /**
   * Sets `key` to `value` as the last in the order (a key already here moves there), and gives
   * the value it replaced. One lookup fewer than `take`, then `set`.
   */
  replace(key: K, value: V): V | undefined {
    const slot = this.#slots.get(key);
    const replaced = slot?.held ? this.#empty(slot) : undefined;
    this.#fill(key, slot, value);
    return replaced;
  }

  delete(key: K): boolean {
    const slot = this.#slots.get(key);
    if (!slot?.held) return false;
    this.#empty(slot);
    this.#sweepIfSparse();
    return true;
  }

  /**
   * Deletes `key` and gives the value it had (`undefined` when it was not here, or held
   * `undefined`). One lookup fewer than `get`, then `delete`.
   */
  take(key: K): V | undefined {
    const slot = this.#slots.get(key);
    if (!slot?.held) return undefined;
    const value = this.#empty(slot);
    this.#sweepIfSparse();
    return value;
  }

  /** Deletes `key` only while it is set to `value` (compared with `===`); true when it did. */
  deleteIfIs(key: K, value: V): boolean {
    const slot = this.#slots.get(key);
    if (!slot?.held || slot.value !== value) return false;
    this.#empty(slot);
    this.#sweepIfSparse();
    return true;
  }

  clear(): void {
    for (let slot = this.#first; slot !== undefined; slot = this.#first) this.#empty(slot);
    this.#slots.clear();
  }

  /** The first key in insertion order (the one here longest), if any. */
  firstKey(): K | undefined {
    return this.#first?.key;
  }

  /**
   * The keys in insertion order, read as the loop goes: deleting or moving (`replace`) the key
   * just given is safe, its successor read before it was given; a key set meanwhile is given.
   */
  *keys(): IterableIterator<K> {
    for (let slot = this.#first; slot !== undefined; ) {
      const { next, fills } = slot;
      yield slot.key;
      slot = slot.held && slot.fills === fills ? slot.next : next;
    }
  }

  /** The values, in insertion order, as a list made now (a caller may delete as it goes). */
  valueList(): V[] {
    const values: V[] = [];
    for (let slot = this.#first; slot !== undefined; slot = slot.next) {
      values.push(slot.value as V);
    }
    return values;
  }

  /** `key`'s slot (a new one when it has none) set to `value` and linked last. */
  #fill(key: K, slot: Slot<K, V> | undefined, value: V): void {
    const filled = slot ?? {
      key,
      value,
      held: false,
      fills: 0,
      previous: undefined,
      next: undefined,
    };
    if (slot === undefined) this.#slots.set(key, filled);
    filled.value = value;
    filled.held = true;
    filled.fills += 1;
    filled.previous = this.#last;
    if (this.#last === undefined) this.#first = filled;
    else this.#last.next = filled;
    this.#last = filled;
    this.#size += 1;
  }

  /**
   * `slot` emptied and unlinked; it stays in the table for its key's return. Every way out of
   * the map goes through here, so no emptied slot keeps a value or a neighbour alive.
   */
  #empty(slot: Slot<K, V>): V | undefined {
    const { value, previous, next } = slot;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next === undefined) this.#last = previous;
    else next.previous = previous;
    slot.value = undefined;
    slot.held = false;
    slot.previous = undefined;
    slot.next = undefined;
    this.#size -= 1;
    return value;
  }

  /** Drops the emptied slots from the table once there are more of them than keys held. */
  #sweepIfSparse(): void {
    const emptied = this.#slots.size - this.#size;
    if (emptied <= this.sweepFloor || emptied <= this.#size) return;
    for (const [key, slot] of this.#slots) if (!slot.held) this.#slots.delete(key);
  }
}

/** Emptied slots a map keeps at least before it drops them from its table. */
export const SWEEP_FLOOR = 1024;

interface Slot<K, V> {
  readonly key: K;
  value: V | undefined;
  /** True while the slot holds a value (which may be `undefined`): the key is here. */
  held: boolean;
  /** How many times it was filled: a loop over the keys tells a slot moved from one left be. */
  fills: number;
  previous: Slot<K, V> | undefined;
  next: Slot<K, V> | undefined;
}
