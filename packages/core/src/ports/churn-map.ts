/**
 * A `Map` for values that come and go all the time and hold much (a session, a load, a released
 * snapshot): a value deleted from it is cut loose from every table V8 ever kept it in.
 *
 * Why: a `Map` whose entries are deleted and added again is rehashed into a new table now and
 * then, and V8 leaves the old table as it was, its entries pointing to the values they held. A
 * table that reached the old generation is garbage there until the next full collection, but
 * every young-generation collection (a scavenge) until then treats what it points to as alive:
 * each value it held, with all that value holds, is copied, then promoted, and stays as garbage
 * in the old generation too. On the memory store, a load + save + release with 200 players in
 * flight promoted 1.9 MB a scavenge that way (`node --trace-gc-nvp`), and core's CPU per cycle
 * was 15.7 µs where a process whose young generation started large (so no table of these reached
 * the old generation) ran it in 8.8.
 *
 * So each value sits in a slot of its own, emptied when it is deleted: an old table keeps only
 * the empty slot.
 */
export class ChurnMap<K, V> {
  readonly #slots = new Map<K, Slot<V>>();

  get size(): number {
    return this.#slots.size;
  }

  get(key: K): V | undefined {
    return this.#slots.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#slots.has(key);
  }

  /** Sets `key` to `value`; a key already here keeps its place in the order, as in a `Map`. */
  set(key: K, value: V): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) this.#slots.set(key, { value });
    else slot.value = value;
  }

  /**
   * Sets `key` to `value` only when `key` is not here: false, changing nothing, when it is.
   * One lookup fewer than `has`, then `set`.
   */
  add(key: K, value: V): boolean {
    if (this.#slots.get(key) !== undefined) return false;
    this.#slots.set(key, { value });
    return true;
  }

  /**
   * Sets `key` to `value` as the last in the order (a key already here moves there), and gives
   * the value it replaced. One lookup fewer than `take`, then `set`.
   */
  replace(key: K, value: V): V | undefined {
    const slot = this.#slots.get(key);
    const replaced = slot === undefined ? undefined : this.#cut(key, slot);
    this.#slots.set(key, { value });
    return replaced;
  }

  delete(key: K): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#cut(key, slot);
    return true;
  }

  /**
   * Deletes `key` and gives the value it had (`undefined` when it was not here, or held
   * `undefined`). One lookup fewer than `get`, then `delete`.
   */
  take(key: K): V | undefined {
    const slot = this.#slots.get(key);
    return slot === undefined ? undefined : this.#cut(key, slot);
  }

  /** Deletes `key` only while it is set to `value` (compared with `===`); true when it did. */
  deleteIfIs(key: K, value: V): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined || slot.value !== value) return false;
    this.#cut(key, slot);
    return true;
  }

  /** `key`'s `slot` emptied, then `key` deleted: every way out of the map goes through here. */
  #cut(key: K, slot: Slot<V>): V | undefined {
    const { value } = slot;
    slot.value = undefined;
    this.#slots.delete(key);
    return value;
  }

  clear(): void {
    for (const slot of this.#slots.values()) slot.value = undefined;
    this.#slots.clear();
  }

  /** The keys in insertion order, read as the loop goes: deleting the key just given is safe. */
  keys(): IterableIterator<K> {
    return this.#slots.keys();
  }

  /** The values, in insertion order, as a list made now (a caller may delete as it goes). */
  valueList(): V[] {
    const values: V[] = [];
    for (const slot of this.#slots.values()) values.push(slot.value as V);
    return values;
  }
}

interface Slot<V> {
  value: V | undefined;
}
