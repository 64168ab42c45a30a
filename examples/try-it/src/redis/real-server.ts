/**
 * A game server of a Redis run: a real `examples/game-server` process, with the player as a
 * WebSocket client of it. What the story does to it (a player leaving, a crash) is reported
 * here, since no core event tells of it.
 */

import { PlayerClient } from '@datadriver/example-game-server/player-client';
import type { FaultRequest, GameServerProcess } from '@datadriver/example-game-server/process';
import type { StoryEventType } from '../story-event.js';

export class RealServer {
  constructor(
    /** "A", "B". */
    readonly label: string,
    readonly process: GameServerProcess,
    private readonly user: string,
    private readonly report: (type: StoryEventType) => void,
    /** Called before a kill the story asks for, so the exit is not taken for a failure. */
    private readonly expectExit: () => void,
  ) {}

  /** The player connects: the server starts loading their profile. */
  join(): Promise<PlayerClient> {
    return PlayerClient.connect(this.process.url, this.user);
  }

  /** The player disconnects: the server starts the leave save. */
  async leave(client: PlayerClient): Promise<void> {
    this.report('player.left');
    await client.close();
  }

  /**
   * A webhook's grant reaches this server's `POST /grant`: `coins` to the player under
   * `receipt`; resolves once the server's send resolved (durable in the player's inbox).
   */
  async grant(coins: number, receipt: string): Promise<void> {
    const { outcome } = await this.process.grant(this.user, coins, receipt);
    if (outcome !== 'queued') throw new Error(`the grant was not queued: ${outcome}`);
    this.report('gift.sent');
  }

  /** SIGKILL: the process stops dead, with no release, beat or reply. */
  async crash(): Promise<void> {
    this.expectExit();
    this.report('server.crashed');
    await this.process.stop('SIGKILL');
  }

  /** Injects a fault through `POST /faults` (the server runs with `--faults`). */
  inject(fault: FaultRequest): Promise<void> {
    return this.process.injectFault(fault);
  }

  /** Lets stalled calls proceed and removes every injected fault. */
  releaseFaults(): Promise<void> {
    return this.process.releaseFaults();
  }
}
