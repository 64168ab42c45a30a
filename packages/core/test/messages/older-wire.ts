/**
 * `parseHandoffMessage` as a build before messages has it (frozen from that build's
 * `handoff/wire.ts`): what a server of an older build does with a nudge. Kept verbatim: the
 * pin that a mixed fleet stays safe is that this drops `{ T: "M" }`.
 */
import { isPlainObject } from '../../src/ports/json.js';
import { isWellFormedText } from '../../src/rules/keys.js';

const isText = isWellFormedText;

export function olderParseHandoffMessage(value: unknown): object | undefined {
  if (!isPlainObject(value) || !isText(value.D) || !isText(value.K)) return undefined;
  if (value.T === 'R') return { T: 'R', D: value.D, K: value.K };
  if (value.T !== 'Q' || !isText(value.R)) return undefined;
  if (value.L !== undefined && !isText(value.L)) return undefined;
  const reason = value.W === 'support' ? value.W : undefined;
  const request = { T: 'Q', D: value.D, K: value.K, R: value.R };
  const locked = value.L === undefined ? request : { ...request, L: value.L };
  return reason === undefined ? locked : { ...locked, W: reason };
}
