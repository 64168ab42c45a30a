const NO_IDS: readonly string[] = Object.freeze([]);

/** The user ids a profile's record belongs to (for erasure requests): written with every save. */
export class UserIds {
  /** Never changed in place: `add` and `remove` replace it, so the load's list is shared. */
  #ids: readonly string[];

  constructor(start: readonly string[] = NO_IDS) {
    this.#ids = start;
  }

  get list(): readonly string[] {
    return this.#ids;
  }

  add(id: string): void {
    if (!this.#ids.includes(id)) this.#ids = [...this.#ids, id];
  }

  remove(id: string): void {
    this.#ids = this.#ids.filter((kept) => kept !== id);
  }
}
