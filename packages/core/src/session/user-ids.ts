/** No user ids: one frozen list for every profile that has none (most). */
const NONE: readonly string[] = Object.freeze([]);

/**
 * The user ids a profile's record belongs to (for erasure requests): written with every save.
 * The list is replaced, never changed in place, so a profile with none shares one empty list.
 */
export class UserIds {
  #ids: readonly string[];

  constructor(start: readonly string[] | undefined) {
    this.#ids = start === undefined || start.length === 0 ? NONE : [...start];
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
