/** A player's connection to a game server, as a small promise-based client. */
import WebSocket from 'ws';

export type ServerMessage =
  | { type: 'loaded'; coins: number; waitedMs?: number; server: string }
  | { type: 'state'; coins: number }
  /** A grant or gift applied to the profile and saved: its coins, and the new total. */
  | { type: 'gift'; id: string; coins: number; from?: string; total: number }
  | { type: 'kicked'; message: string }
  | { type: 'error'; message: string };

/** How a connection ended: the WebSocket close code (1006: dropped without a close frame). */
export interface Closed {
  readonly code: number;
  readonly reason: string;
}

export class PlayerClient {
  /** Resolves when the connection ends, for whatever reason (a kick, a crash, `close()`). */
  readonly closed: Promise<Closed>;
  private readonly inbox: ServerMessage[] = [];
  private readonly waiters = new Set<() => void>();
  private ended = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      this.inbox.push(JSON.parse(raw.toString()) as ServerMessage);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.ended = true;
        this.wake();
        resolve({ code, reason: reason.toString() });
      });
    });
    // A dropped connection also emits 'error' (ECONNRESET); 'close' follows and tells it.
    socket.on('error', () => undefined);
  }

  /** Connects to `serverUrl` (ws://host:port) as `user`. */
  static connect(serverUrl: string, user: string): Promise<PlayerClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${serverUrl}/play?user=${encodeURIComponent(user)}`);
      socket.once('open', () => resolve(new PlayerClient(socket)));
      socket.once('error', reject);
    });
  }

  /** The next message of `type`, or of a kick (which ends the session), within `timeoutMs`. */
  next<T extends ServerMessage['type']>(
    type: T,
    timeoutMs = 30_000,
  ): Promise<Extract<ServerMessage, { type: T }> | Extract<ServerMessage, { type: 'kicked' }>> {
    return this.nextOf([type], timeoutMs);
  }

  /** The next message of one of `types`, or of a kick, within `timeoutMs`. */
  async nextOf<T extends ServerMessage['type']>(
    types: readonly T[],
    timeoutMs = 30_000,
  ): Promise<Extract<ServerMessage, { type: T }> | Extract<ServerMessage, { type: 'kicked' }>> {
    const wanted: readonly string[] = [...types, 'kicked'];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.inbox.findIndex((message) => wanted.includes(message.type));
      if (index >= 0) {
        return this.inbox.splice(index, 1)[0] as
          | Extract<ServerMessage, { type: T }>
          | Extract<ServerMessage, { type: 'kicked' }>;
      }
      const named = types.map((type) => `"${type}"`).join(' or ');
      if (this.ended) throw new Error(`the connection closed while waiting for ${named}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${named} message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Earns coins and resolves with the server's new total. */
  async earn(coins: number): Promise<number> {
    this.socket.send(JSON.stringify({ type: 'earn', coins }));
    const state = await this.next('state');
    if (state.type === 'kicked') throw new Error(`kicked while earning: ${state.message}`);
    return state.coins;
  }

  /**
   * Gives `coins` to player `to` (a transfer, delivered wherever they are once saved here) and
   * resolves with this player's new total; rejects with the server's reason when it refused.
   */
  async give(to: string, coins: number): Promise<number> {
    this.socket.send(JSON.stringify({ type: 'give', to, coins }));
    const answer = await this.nextOf(['state', 'error']);
    if (answer.type === 'state') return answer.coins;
    throw new Error(`the gift was refused: ${answer.message}`);
  }

  /**
   * Stops reading the server's frames until `resume`: they wait in the socket's buffers, and
   * the server's close handshake waits for this client's answer. The bench holds a player's
   * old connection while the player joins another server, so that the old connection takes
   * its kick after the hop, as a player's device across a network would, not on the servers'
   * own cores during it.
   */
  pause(): void {
    this.socket.pause();
  }

  /** Reads the server's frames again, those that waited first. */
  resume(): void {
    this.socket.resume();
  }

  /** Disconnects (the server runs the player's leave save). */
  close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}
