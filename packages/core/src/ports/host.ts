/** A connected player, as the game server knows it. */
export interface HostPlayer {
  /** The player's stable user id; by default also the key of their profile. */
  readonly id: string;
}

/**
 * The game server, as DataDriver sees it (`Kernel` in the seed): players arrive and leave,
 * and a player can be removed with a message.
 */
export interface Host<P extends HostPlayer = HostPlayer> {
  /** This server's id, unique per process run. An empty id turns handoff off. */
  readonly jobId: string;
  /** Calls `listener` for each player who joins. Returns a function that unsubscribes. */
  onPlayerAdded(listener: (player: P) => void): () => void;
  /**
   * Calls `listener` for each player who leaves, including one removed by `kick`.
   * Returns a function that unsubscribes.
   */
  onPlayerRemoving(listener: (player: P) => void): () => void;
  /**
   * Ends the player's session with `message`. The host must then report the player as
   * removing (which runs the game's leave cleanups and the driver's release save) promptly,
   * without waiting for the client to acknowledge: the kicked connection is often a stale one
   * that never answers, and another server's join waits on that release.
   */
  kick(player: P, message: string): void;
  /** The players connected now, so that a driver attached late loads them too. */
  players?(): Iterable<P>;
}
