/**
 * The game server as DataDriver's Host: a WebSocket connection is a player; closing it is the
 * player leaving; a kick reports the player as removing at once (so the game's leave cleanups
 * and the release save run), then tells the client why and closes the connection, once
 * `kickFramesAfter` says (after the release, in the server: see release-watch.ts).
 */
import type { Host, HostPlayer } from '@datadriver/core';
import { HostListeners } from '@datadriver/core/ports';
import type { WebSocket } from 'ws';

export interface SocketPlayer extends HostPlayer {
  readonly socket: WebSocket;
}

type Listener = (player: SocketPlayer) => void;

/** WebSocket close code for a kick: the client shows the message and does not reconnect. */
export const KICK_CLOSE_CODE = 4000;

/** How long a kicked connection may take to answer the close handshake before it is cut. */
export const KICK_CLOSE_GRACE_MS = 5_000;

export interface WebSocketHostOptions {
  /**
   * What a kick's frames (the message, the close) wait for, once the player is reported as
   * removing: undefined, or no option, sends them at once.
   */
  readonly kickFramesAfter?: (player: SocketPlayer) => Promise<void> | undefined;
}

export class WebSocketHost implements Host<SocketPlayer> {
  private readonly connected = new Set<SocketPlayer>();
  private readonly listeners = new HostListeners<SocketPlayer>();

  constructor(
    readonly jobId: string,
    private readonly options: WebSocketHostOptions = {},
  ) {}

  onPlayerAdded(listener: Listener): () => void {
    return this.listeners.onPlayerAdded(listener);
  }

  onPlayerRemoving(listener: Listener): () => void {
    return this.listeners.onPlayerRemoving(listener);
  }

  players(): Iterable<SocketPlayer> {
    return [...this.connected];
  }

  /** A client connected as `userId`. */
  connect(socket: WebSocket, userId: string): SocketPlayer {
    const player: SocketPlayer = { id: userId, socket };
    this.connected.add(player);
    socket.once('close', () => this.disconnect(player));
    this.listeners.added(player);
    return player;
  }

  kick(player: SocketPlayer, message: string): void {
    // Asked before the player is removed: removing starts the release it may wait for.
    const after = this.options.kickFramesAfter?.(player);
    // The player is gone for the game now. Waiting for the close handshake would hold the
    // release save (and so the player's join elsewhere) hostage to the old connection, and a
    // stale one, the very case a live hand-over exists for, never answers (ws waits 30 s).
    this.disconnect(player);
    if (after) void after.then(() => tellKicked(player, message));
    else tellKicked(player, message);
  }

  get count(): number {
    return this.connected.size;
  }

  private disconnect(player: SocketPlayer): void {
    if (!this.connected.delete(player)) return;
    this.listeners.removing(player);
  }
}

/** The kick's frames: why, then the close; cut if the close handshake gets no answer. */
function tellKicked(player: SocketPlayer, message: string): void {
  send(player, { type: 'kicked', message });
  player.socket.close(KICK_CLOSE_CODE, message.slice(0, 120));
  const cut = setTimeout(() => player.socket.terminate(), KICK_CLOSE_GRACE_MS);
  cut.unref();
  player.socket.once('close', () => clearTimeout(cut));
}

/** Sends one JSON message to a player, if the connection is still open. */
export function send(player: SocketPlayer, message: Record<string, unknown>): void {
  if (player.socket.readyState === player.socket.OPEN) player.socket.send(JSON.stringify(message));
}
