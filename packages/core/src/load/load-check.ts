/**
 * The schema check of a load, inside its atomic update: the data a take would write (defaults
 * filled, migrations run) must pass the driver's schema before the lock is written, so a record
 * that fails is refused with nothing written, byte for byte as stored. A synchronous schema
 * answers inside the transform; an asynchronous one cannot, so the transform writes nothing,
 * the attempt awaits the verdict and runs its update again, and the verdict applies while the
 * data it checked is what the store still holds.
 */
import type { JsonObject } from '../ports/json.js';
import { type DataSchema, enforce, judge, type SchemaVerdict } from '../rules/index.js';

export const LEFT_UNTOUCHED = 'the record was left untouched';

export class LoadCheck {
  #settled: { readonly json: string; readonly verdict: SchemaVerdict } | undefined;
  #pending: { readonly json: string; readonly verdict: Promise<SchemaVerdict> } | undefined;

  constructor(
    private readonly schema: DataSchema | undefined,
    private readonly key: string,
  ) {}

  /**
   * In the transform: true when `data` may be written, false while an asynchronous verdict on
   * it is awaited (`settle`); throws `Data.InvalidData` when it fails.
   */
  passes(data: JsonObject): boolean {
    if (this.schema === undefined) return true;
    const json = JSON.stringify(data);
    if (this.#settled?.json === json) {
      enforce(this.key, this.#settled.verdict, LEFT_UNTOUCHED);
      return true;
    }
    // A copy: a schema never holds or changes the data the store or the session keeps.
    const verdict = judge(this.schema, this.key, JSON.parse(json));
    if (verdict instanceof Promise) {
      this.#pending = { json, verdict };
      return false;
    }
    enforce(this.key, verdict, LEFT_UNTOUCHED);
    return true;
  }

  /** Awaits the verdict the last `passes` asked for; the update then runs again. */
  async settle(): Promise<void> {
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) this.#settled = { json: pending.json, verdict: await pending.verdict };
  }
}
