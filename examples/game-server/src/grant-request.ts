/**
 * The body of `POST /grant`, a stand-in for a payment provider's webhook:
 *
 *   { "player": "user-42", "coins": 100, "receipt": "pay-7f3a" }
 *
 * Checked whole before anything is sent: a bad body is refused with a sentence saying what is
 * wrong, and no message is written.
 */

/** What a grant may give at once: a demo's bound, well inside a JSON number's exact range. */
export const MAX_GRANT_COINS = 1_000_000;

export interface GrantRequest {
  /** The player's user id: their profile key. */
  readonly player: string;
  readonly coins: number;
  /** The payment's receipt id: the message's id, so a redelivered webhook is a duplicate. */
  readonly receipt: string;
}

/** What the game's `onMessage` receives as a grant's body. */
export interface GrantBody {
  readonly coins: number;
}

function field(body: object, name: string): unknown {
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

function nonEmptyString(body: object, name: string): string {
  const value = field(body, name);
  if (typeof value !== 'string' || value === '') {
    throw new RangeError(`${name} must be a non-empty string`);
  }
  return value;
}

/** The grant in `body` (parsed JSON), or a RangeError that says what is wrong with it. */
export function parseGrantRequest(body: unknown): GrantRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RangeError('expected a JSON object: { "player", "coins", "receipt" }');
  }
  const player = nonEmptyString(body, 'player');
  const receipt = nonEmptyString(body, 'receipt');
  const coins = field(body, 'coins');
  if (!Number.isInteger(coins) || (coins as number) < 1 || (coins as number) > MAX_GRANT_COINS) {
    throw new RangeError(`coins must be a whole number from 1 to ${MAX_GRANT_COINS}`);
  }
  return { player, coins: coins as number, receipt };
}

/** A message body the game applies as a grant, or undefined for anything else. */
export function grantOf(body: unknown): GrantBody | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const coins = field(body, 'coins');
  return Number.isInteger(coins) && (coins as number) > 0 ? { coins: coins as number } : undefined;
}
