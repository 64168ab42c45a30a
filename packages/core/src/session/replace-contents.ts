import type { JsonObject } from '../ports/json.js';
import { defineOwn } from '../rules/record.js';

/**
 * Makes `target` hold exactly `source`'s own fields, in place: the object a game holds as
 * `profile.data` stays the one the session writes. Fields are defined as own data, so a key
 * named `__proto__` stays a key.
 */
export function replaceContents(target: JsonObject, source: JsonObject): void {
  if (target === source) return;
  for (const key of Object.keys(target)) {
    if (!Object.hasOwn(source, key)) delete target[key];
  }
  for (const [key, value] of Object.entries(source)) defineOwn(target, key, value);
}
