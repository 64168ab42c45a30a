import type { Host, HostPlayer } from '../ports/host.js';

export interface MemoryPlayer extends HostPlayer {
  /** The kick message, once the player was kicked. */
  kickedWith?: string;
}

type Listener = (player: MemoryPlayer) => void;

/**
 * A game server in memory: tests and single-process setups call `join` and `leave`;
 * `kick` records the message and then reports the player as removing, as a real host must.
 */
export class MemoryHost implements Host<MemoryPlayer> {
  readonly kicks: Array<{ readonly player: string; readonly message: string }> = [];
  private readonly connected = new Map<string, MemoryPlayer>();
  private readonly added = new Set<Listener>();
  private readonly removing = new Set<Listener>();

  constructor(readonly jobId: string) {}

  onPlayerAdded(listener: Listener): () => void {
    this.added.add(listener);
    return () => this.added.delete(listener);
  }

  onPlayerRemoving(listener: Listener): () => void {
    this.removing.add(listener);
    return () => this.removing.delete(listener);
  }

  players(): Iterable<MemoryPlayer> {
    return [...this.connected.values()];
  }

  /** A player connects. */
  join(id: string): MemoryPlayer {
    const player: MemoryPlayer = { id };
    this.connected.set(id, player);
    for (const listener of this.added) listener(player);
    return player;
  }

  /** A player disconnects. */
  leave(id: string): void {
    const player = this.connected.get(id);
    if (!player) return;
    this.connected.delete(id);
    for (const listener of this.removing) listener(player);
  }

  kick(player: MemoryPlayer, message: string): void {
    player.kickedWith = message;
    this.kicks.push({ player: player.id, message });
    queueMicrotask(() => this.leave(player.id));
  }

  /** True while the player is connected. */
  has(id: string): boolean {
    return this.connected.has(id);
  }
}
