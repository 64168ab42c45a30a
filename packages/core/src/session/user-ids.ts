/** The user ids a profile's record belongs to (for erasure requests): written with every save. */
export class UserIds {
  #ids: string[];

  constructor(start: readonly string[] = []) {
    this.#ids = [...start];
  }

  get list(): readonly string[] {
    return this.#ids;
  }

  add(id: string): void {
    if (!this.#ids.includes(id)) this.#ids.push(id);
  }

  remove(id: string): void {
    this.#ids = this.#ids.filter((kept) => kept !== id);
  }
}
