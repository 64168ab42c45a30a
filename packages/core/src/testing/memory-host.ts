import type { Host, HostPlayer } from '../ports/host.js';
import { HostListeners } from '../ports/host-listeners.js';

export interface MemoryPlayer extends HostPlayer {
  /** The kick message, once the player was kicked. */
  kickedWith?: string;
}

type Listener = (player: MemoryPlayer) => void;

/**
 * A game server in memory: tests and single-process setups call `join` and `leave`;
 * `kick` records the message and then reports the player as removing, as a real host must.
 * Each `join` is a connection of its own: a player who joins again while still connected (a
 * second tab, a reconnect before the old socket timed out) has two, and a kick ends only the
 * one it names.
 */
export class MemoryHost implements Host<MemoryPlayer> {
  readonly kicks: Array<{ readonly player: string; readonly message: string }> = [];
  private readonly connected: MemoryPlayer[] = [];
  private readonly listeners = new HostListeners<MemoryPlayer>();

  constructor(readonly jobId: string) {}

  onPlayerAdded(listener: Listener): () => void {
    return this.listeners.onPlayerAdded(listener);
  }

  onPlayerRemoving(listener: Listener): () => void {
    return this.listeners.onPlayerRemoving(listener);
  }

  players(): Iterable<MemoryPlayer> {
    return [...this.connected];
  }

  /** A player connects. */
  join(id: string): MemoryPlayer {
    const player: MemoryPlayer = { id };
    this.connected.push(player);
    this.listeners.added(player);
    return player;
  }

  /** A player disconnects: that connection, or the oldest one of that id. */
  leave(player: string | MemoryPlayer): void {
    const leaving =
      typeof player === 'string' ? this.connected.find((p) => p.id === player) : player;
    const index = leaving === undefined ? -1 : this.connected.indexOf(leaving);
    if (index < 0) return;
    this.connected.splice(index, 1);
    this.listeners.removing(leaving!);
  }

  kick(player: MemoryPlayer, message: string): void {
    player.kickedWith = message;
    this.kicks.push({ player: player.id, message });
    queueMicrotask(() => this.leave(player));
  }

  /** True while a player of that id is connected. */
  has(id: string): boolean {
    return this.connected.some((player) => player.id === id);
  }
}
