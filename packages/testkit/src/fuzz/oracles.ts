/**
 * What the properties expect, worked out independently of core's own checks: whether a value
 * survives JSON unchanged (by trying it), whether a string is a key a backend keeps apart,
 * and whether a handoff payload must release a profile.
 */
import { MAX_MESSAGE_BYTES } from '@datadriver/core/ports';

/** The deepest nesting core saves (its documented limit). */
const MAX_DEPTH = 64;

/** True when `value` comes back from JSON.stringify and JSON.parse the same, within the depth. */
export function roundTrips(value: unknown): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return false; // a cycle or a BigInt
  }
  if (text === undefined) return false;
  return sameJson(value, JSON.parse(text), 0);
}

function sameJson(original: unknown, copy: unknown, depth: number): boolean {
  if (typeof original !== 'object' || original === null) {
    // -0 is stored as 0, which core accepts: the same number to JSON and to ===.
    return original === copy;
  }
  if (depth >= MAX_DEPTH || typeof copy !== 'object' || copy === null) return false;
  if (Array.isArray(original)) {
    if (Object.getPrototypeOf(original) !== Array.prototype || !Array.isArray(copy)) return false;
    if (Reflect.ownKeys(original).length !== original.length + 1) return false;
    return original.every((item, index) => sameJson(item, copy[index], depth + 1));
  }
  const prototype: unknown = Object.getPrototypeOf(original);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Reflect.ownKeys(original);
  if (keys.some((key) => typeof key === 'symbol')) return false;
  const names = keys as string[];
  if (names.length !== Object.keys(copy).length) return false;
  return names.every((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(original, key);
    if (!descriptor || !('value' in descriptor) || !descriptor.enumerable) return false;
    return (
      Object.hasOwn(copy, key) &&
      sameJson(descriptor.value, Object.getOwnPropertyDescriptor(copy, key)?.value, depth + 1)
    );
  });
}

/** True when `text` has no lone surrogate (checked by hand, code unit by code unit). */
export function wellFormed(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index += 1;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

/** True when core must take `key` as a profile key. */
export function validProfileKey(key: string): boolean {
  return key !== '' && wellFormed(key) && withinNameCap(key);
}

/** Keys, names and jobIds take at most 256 bytes as JSON strings (UTF-8, escapes counted). */
function withinNameCap(text: string): boolean {
  return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2 <= 256;
}

/** True when core must take `name` as a driver name. */
export function validDriverName(name: string): boolean {
  return (
    name !== '' &&
    wellFormed(name) &&
    !name.includes('/') &&
    !name.includes('#') &&
    withinNameCap(name)
  );
}

/**
 * The profile keys of driver `driver` that `payloads` must release on a server holding each
 * under `tokens`: a well-formed request for the key within 1 kB, naming no token or its own.
 */
export function releasedBy(
  payloads: readonly string[],
  driver: string,
  tokens: ReadonlyMap<string, string>,
): Set<string> {
  const released = new Set<string>();
  for (const payload of payloads) {
    if (Buffer.byteLength(payload, 'utf8') > MAX_MESSAGE_BYTES) continue;
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      continue;
    }
    const request = requestIn(value);
    if (request?.D !== driver) continue;
    const token = tokens.get(request.K);
    if (token !== undefined && (request.L === undefined || request.L === token)) {
      released.add(request.K);
    }
  }
  return released;
}

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && wellFormed(value);

/** A handoff request `{ T: "Q", D, K, R, L? }`, read by the lock handoff rules, or undefined. */
function requestIn(value: unknown): { D: string; K: string; L?: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { T, D, K, R, L } = value as Record<string, unknown>;
  if (T !== 'Q' || !isName(D) || !isName(K) || !isName(R)) return undefined;
  if (L !== undefined && !isName(L)) return undefined;
  return L === undefined ? { D, K } : { D, K, L };
}
