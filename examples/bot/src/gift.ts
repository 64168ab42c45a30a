/**
 * The bot's gift: mid-run it grants itself coins through a game server's `POST /grant` (a
 * payment webhook's stand-in), on another server than the one it plays on, and waits for its
 * client to be told, as a player sees a purchase land while playing.
 */
import type { PlayerClient } from '@datadriver/example-game-server/player-client';

export interface GiftArrival {
  /** The hop the gift was sent at, before playing on. */
  readonly index: number;
  readonly coins: number;
  readonly receipt: string;
  /** Where the grant was posted: `http://host:port/grant`. */
  readonly sentTo: string;
  /** What that server answered once the grant was durable. */
  readonly outcome: 'queued' | 'duplicate';
  /** From posting the grant to the client told it was applied and saved. */
  readonly arrivedMs: number;
  /** The player's coins once it arrived. */
  readonly total: number;
}

/** How long the client may wait to be told; a live gift takes milliseconds. */
const GIFT_TIMEOUT_MS = 10_000;

/** `ws://host:port` -> `http://host:port/grant`. */
export function grantUrl(server: string): string {
  return `${server.replace(/^ws/, 'http')}/grant`;
}

export async function sendGift(
  client: PlayerClient,
  to: { readonly server: string; readonly user: string },
  gift: { readonly index: number; readonly coins: number; readonly receipt: string },
): Promise<GiftArrival> {
  const sentTo = grantUrl(to.server);
  const started = performance.now();
  const response = await fetch(sentTo, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ player: to.user, coins: gift.coins, receipt: gift.receipt }),
  });
  if (!response.ok) {
    throw new Error(`${sentTo} refused the gift (${response.status}): ${await response.text()}`);
  }
  const { outcome } = (await response.json()) as { outcome: 'queued' | 'duplicate' };
  const told = await client.next('gift', GIFT_TIMEOUT_MS);
  if (told.type === 'kicked') throw new Error(`kicked while waiting for the gift: ${told.message}`);
  if (told.id !== gift.receipt) {
    throw new Error(`told of gift ${told.id}, expected ${gift.receipt}`);
  }
  const arrivedMs = Math.round(performance.now() - started);
  return { ...gift, sentTo, outcome, arrivedMs, total: told.total };
}
