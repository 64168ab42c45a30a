/**
 * The servers of one Redis run: `examples/game-server` processes on one Redis, each event they
 * stream renamed to the page's labels, and the story's own events beside them. A server that
 * exits without the story asking fails the run, with its last output.
 */
import { GameServerProcess } from '@datadriver/example-game-server/process';
import { Aborted } from '../aborted.js';
import type { StoryEventType } from '../story-event.js';
import {
  isEventOf,
  type WorldEvent,
  type WorldEventOf,
  type WorldEventType,
} from '../world-event.js';
import { RealServer } from './real-server.js';
import { relabel } from './relabel.js';
import { PLAYER, RunNames } from './run-names.js';

/** How a server of the case differs from the default one. */
export interface ServerSpec {
  /** `--faults`: the story injects faults through `POST /faults`. */
  readonly faults?: boolean;
  /** `false`: `--no-handoff`, the server runs as an older build. */
  readonly handoff?: boolean;
  /** `--lock-ttl` and `--lock-skew`, so a lock can be stale by age within seconds. */
  readonly lockTtlSeconds?: number;
  readonly lockSkewSeconds?: number;
}

export interface WorldOptions {
  /** The Redis the game servers share, or with `stack: 'postgres'` the PostgreSQL. */
  readonly redisUrl: string;
  /** `postgres`: the servers run `--stack postgres` on the database at `redisUrl`'s place. */
  readonly stack?: 'redis' | 'postgres';
  /** Every server's `--scale`: the seed's constants times this. */
  readonly scale: number;
}

type WorldListener = (event: WorldEvent) => void;

/** No step of a story waits longer than this on a healthy machine, even a busy one. */
const WAIT_MS = 30_000;
/** How much of a dead server's output the error quotes. */
const OUTPUT_TAIL_CHARS = 2_000;

export class RedisWorld {
  readonly names = new RunNames();
  /** Rejects when a server exits without the story asking; raced against the story. */
  readonly failed: Promise<never>;
  private readonly servers = new Map<string, RealServer>();
  private readonly listeners = new Set<WorldListener>();
  private readonly waits = new Set<() => void>();
  private stopping = false;
  private fail: (error: Error) => void = () => undefined;

  constructor(private readonly options: WorldOptions) {
    this.failed = new Promise<never>((_resolve, reject) => {
      this.fail = reject;
    });
    this.failed.catch(() => undefined); // whoever races it handles it; it never goes unhandled
  }

  /** Every server's `--scale`: the seed's constants times this. */
  get scale(): number {
    return this.options.scale;
  }

  /** Starts server `label` and follows its events; resolves once it listens. */
  async server(label: string, spec: ServerSpec = {}): Promise<RealServer> {
    if (this.stopping) throw new Error('the run is over');
    const process = await GameServerProcess.start({
      jobId: this.names.jobId(label),
      scale: this.options.scale,
      ...(this.options.stack === 'postgres'
        ? { stack: 'postgres' as const, env: { DATABASE_URL: this.options.redisUrl } }
        : { env: { REDIS_URL: this.options.redisUrl } }),
      faults: spec.faults ?? false,
      handoff: spec.handoff ?? true,
      lockTtlSeconds: spec.lockTtlSeconds,
      lockSkewSeconds: spec.lockSkewSeconds,
    });
    if (this.stopping) {
      await process.stop('SIGKILL'); // the run ended while it started: it must not outlive it
      throw new Error('the run is over');
    }
    let asked = false;
    const server = new RealServer(
      label,
      process,
      this.names.user,
      (type) => this.report(label, type),
      () => {
        asked = true;
      },
    );
    this.servers.set(label, server);
    const labelOf = (name: string) => this.names.labelOf(name);
    process.onEvent((event) => this.emit({ ...relabel(event, labelOf), server: label }));
    process.onExit((code, signal) => {
      if (!asked && !this.stopping) this.exited(server, signal ?? `code ${code}`);
    });
    return server;
  }

  /** Calls `listener` with every event from now on. Returns a function that stops it. */
  on(listener: WorldListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The next event of one of `types` on server `label` (for the player when `key` says so). */
  next<T extends WorldEventType>(
    label: string,
    types: readonly T[],
    key?: string,
    timeoutMs = WAIT_MS,
  ): Promise<WorldEventOf<T>> {
    const waiting = new Promise<WorldEventOf<T>>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        off();
        this.waits.delete(done);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`server ${label} reported no ${types.join(' or ')} within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      const off = this.on((event) => {
        if (!isEventOf(event, label, types, key)) return;
        done();
        resolve(event);
      });
      this.waits.add(done);
    });
    // A story starts waiting before it acts and awaits later: until then a timeout must not
    // count as an unhandled rejection (awaiting it still throws).
    waiting.catch(() => undefined);
    return waiting;
  }

  /** How the next load of the player on server `label` ends. */
  loadOutcome(label: string) {
    return this.next(label, ['load.loaded', 'load.failed'], PLAYER);
  }

  /** Waits `ms` of wall time (none when negative). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }

  /**
   * Kills every server (the story is over: nothing needs releasing) and stops every wait; a
   * story still playing ends as stopped (`failed` rejects with `Aborted`).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.fail(new Aborted());
    for (const cancel of [...this.waits]) cancel();
    this.listeners.clear();
    await Promise.all([...this.servers.values()].map((server) => server.process.stop('SIGKILL')));
  }

  private report(label: string, type: StoryEventType): void {
    this.emit({ type, time: Date.now(), jobId: label, server: label });
  }

  private exited(server: RealServer, how: string): void {
    this.report(server.label, 'server.exited');
    const output = server.process.output().trim().slice(-OUTPUT_TAIL_CHARS);
    this.fail(
      new Error(
        `game server ${server.label} (${server.process.jobId}) exited unexpectedly (${how})${output ? `; its last output:\n${output}` : ''}`,
      ),
    );
  }

  private emit(event: WorldEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
