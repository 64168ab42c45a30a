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
 * store, a load + save + release with 200 players in flight promoted 478 KB a scavenge while the
 * registry's maps, the released snapshots' and the lock tokens' deleted their keys, and none once
 * they kept them (`bench/scripts/core-promotion-ab.sh ef1f0ae ea06379 4`).
 *
 * So each key has a slot of its own that stays in the table once emptied, and the order is a
 * list through the slots rather than the table's. Emptied slots are dropped from the table only
 * once they outnumber both the keys here and `SWEEP_FLOOR` (a server's players come and go by
 * the thousand, most never to come back): a few rehashes for that many keys gone.
 */

/** Emptied slots a map keeps at least before it drops them from its table. */
export const SWEEP_FLOOR = 1024;

export class ChurnMap<K, V> {
  readonly #slots = new Map<K, Slot<K, V>>();
  /** The first and last slot holding a value, in insertion order. */
  #first: Slot<K, V> | undefined;
  #last: Slot<K, V> | undefined;
  #size = 0;
  /** Fills so far: each slot's `order`, rising along the list. */
  #fills = 0;

  /** `sweepFloor`: emptied slots kept at least before a sweep (tests pass a small one). */
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
   * The keys in insertion order, read as the loop goes, as a `Map`'s: a key deleted before the
   * loop reaches it is not given, and one set meanwhile (or set again) is given in its turn.
   */
  *keys(): IterableIterator<K> {
    for (let slot = this.#first; slot !== undefined; ) {
      const { next, order } = slot;
      yield slot.key;
      slot = this.#heldAfter(order, slot, next);
    }
  }

  /**
   * The first held slot filled after `order`, for a loop that just gave `given` (its `next`
   * then): at once while either is as it was, else back from the last (filled since).
   */
  #heldAfter(
    order: number,
    given: Slot<K, V>,
    next: Slot<K, V> | undefined,
  ): Slot<K, V> | undefined {
    if (given.held && given.order === order) return given.next;
    // The list rises by order: a held slot after `order` whose previous is not is the first.
    if (next?.held && next.order > order && !(next.previous && next.previous.order > order)) {
      return next;
    }
    let slot = this.#last;
    if (slot === undefined || slot.order <= order) return undefined;
    while (slot.previous !== undefined && slot.previous.order > order) slot = slot.previous;
    return slot;
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
      order: 0,
      previous: undefined,
      next: undefined,
    };
    if (slot === undefined) this.#slots.set(key, filled);
    filled.value = value;
    filled.held = true;
    this.#fills += 1;
    filled.order = this.#fills;
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

  /** Drops the emptied slots from the table once they outnumber the keys held and the floor. */
  #sweepIfSparse(): void {
    const emptied = this.#slots.size - this.#size;
    if (emptied <= this.sweepFloor || emptied <= this.#size) return;
    for (const slot of this.#slots.values()) if (!slot.held) this.#slots.delete(slot.key);
  }
}

interface Slot<K, V> {
  readonly key: K;
  value: V | undefined;
  /** True while the slot holds a value (which may be `undefined`): the key is here. */
  held: boolean;
  /** When it was last filled (the map's count of fills then): rises along the list. */
  order: number;
  previous: Slot<K, V> | undefined;
  next: Slot<K, V> | undefined;
}
