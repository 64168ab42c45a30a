/**
 * `POST /grant`: a payment webhook's stand-in. The grant goes to the player's profile through
 * `driver.send` with the receipt as its id, wherever the player is (on this server, another,
 * none), and the answer waits until the send resolved, so a 200 means durable in the inbox:
 *
 *   200 { "outcome": "queued" }      the grant will be applied once, by whoever holds the player
 *   200 { "outcome": "duplicate" }   this receipt was granted before: nothing written
 *   400 { "error": "..." }           a bad body (or player key, or receipt): nothing written
 *   429 { "error", "code" }          the player's inbox is full: retry later
 *   503 { "error", "code" }          the store failed: retry with the same receipt
 *
 * A provider acknowledges a payment only on a 200, and retries otherwise with the same receipt:
 * a retry of a grant that landed after all answers `duplicate`. A stand-in: the server listens
 * on loopback only, and a real webhook checks the provider's signature before granting.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DataDriver, DataDriverError, ErrorCode } from '@datadriver/core';
import { type GrantBody, parseGrantRequest } from './grant-request.js';
import { readBody, reply } from './http-json.js';

/** The driver's refusals of what the caller sent: its fault, nothing written. */
const CALLER_ERRORS: ReadonlySet<string> = new Set([
  ErrorCode.InvalidArgument,
  ErrorCode.InvalidData,
  ErrorCode.TooLarge,
]);

/** Serves `POST /grant`; false for any other request. */
export async function routeGrant(
  driver: Pick<DataDriver<object>, 'send'>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  if (request.method !== 'POST' || request.url !== '/grant') return false;
  let grant: ReturnType<typeof parseGrantRequest>;
  try {
    grant = parseGrantRequest(JSON.parse(await readBody(request)));
  } catch (error) {
    const message = error instanceof SyntaxError ? 'the body is not JSON' : errorText(error);
    reply(response, 400, { error: message });
    return true;
  }
  const body: GrantBody = { coins: grant.coins };
  try {
    const { outcome } = await driver.send(grant.player, body, { id: grant.receipt });
    reply(response, 200, { outcome });
  } catch (error) {
    if (!DataDriverError.isInstance(error)) throw error;
    const status = CALLER_ERRORS.has(error.code)
      ? 400
      : error.code === ErrorCode.InboxFull
        ? 429
        : 503;
    reply(response, status, { error: error.message, code: error.code });
  }
  return true;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
