/**
 * The lock tokens every driver in this process holds or is loading under, by key: one nearly
 * always, a few when drivers of several names share a key or a load of a key starts while its
 * session is still leaving. Kept by key rather than by token: a token is new with every load
 * (`createId`), so a map by token would delete a key for good with every release, and a
 * `ChurnMap` keeps its table still only for keys that come back (`ports/churn-map.ts`). A
 * token used for two keys (a `createId` that repeats) would count under each.
 */
import { ChurnMap } from '../ports/churn-map.js';

export class TokensByKey {
  readonly #byKey = new ChurnMap<string, string | string[]>();

  /** `token` held or loaded under for `key` (again: once is enough). */
  add(key: string, token: string): void {
    const held = this.#byKey.get(key);
    if (held === undefined) this.#byKey.set(key, token);
    else if (typeof held === 'string') {
      if (held !== token) this.#byKey.set(key, [held, token]);
    } else if (!held.includes(token)) held.push(token);
  }

  /** `token` no longer held or loaded under for `key`. */
  delete(key: string, token: string): void {
    const held = this.#byKey.get(key);
    if (held === token) this.#byKey.delete(key);
    else if (typeof held === 'object') {
      const index = held.indexOf(token);
      if (index < 0) return;
      held.splice(index, 1);
      if (held.length === 1) this.#byKey.set(key, held[0] as string);
    }
  }

  /** True when `token` is held or loaded under for `key` (not for another key). */
  has(key: string, token: string): boolean {
    const held = this.#byKey.get(key);
    return held === token || (typeof held === 'object' && held.includes(token));
  }
}
