/**
 * `text`, its characters in one piece. V8 keeps a string made by concatenation as a tree of its
 * pieces until something needs them in a row, and `crypto.randomUUID()` joins about twenty: a
 * lock token made so (the default before `nextUniqueId`) and then keyed by, hashed and sent on
 * every write made a load + save + release 0.55 µs slower on the memory store
 * (`bench/scripts/core-cycle-ab.sh`, 10 rounds). Reading a character flattens it, once, in
 * place. Strings of a few pieces (a store key, a version id) measured no different, so only
 * ids are flattened.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}
