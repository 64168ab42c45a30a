/**
 * Several game servers in one process, sharing one in-memory backend on one virtual clock,
 * with the scenario suite's latencies: each store call 100 ms, each publish 20 ms, each
 * presence call 10 ms. That is what makes the waits worth measuring, and the same numbers
 * as the cases table (docs/guide/concepts.md).
 */
import {
  DataDriver,
  Handoff,
  type Logger,
  type MessageTarget,
  type ProfileMessage,
} from '@datadriver/core';
import {
  FaultyMessenger,
  FaultyPresence,
  FaultyStore,
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '@datadriver/core/testing';
import type { StoryEvent } from '../story-event.js';
import {
  isEventOf,
  type WorldEvent,
  type WorldEventOf,
  type WorldEventType,
} from '../world-event.js';
import { BeatRecorder } from './beat-recorder.js';
import { DemoServer, type PlayerData } from './demo-server.js';

export const LATENCY = { storeMs: 100, messageMs: 20, presenceMs: 10 } as const;

export const DRIVER_NAME = 'PlayerData';

type WorldListener = (event: WorldEvent) => void;

/** The page shows what happened through events; log lines would only repeat them. */
const quietLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message) => console.error(message),
};

/** A grant or gift adds its coins, as the example game server's `onMessage` does. */
function addCoins(profile: MessageTarget<PlayerData>, message: ProfileMessage): void {
  profile.data.coins += (message.body as { coins: number }).coins;
}

export class DemoWorld {
  readonly clock = new VirtualClock();
  readonly store = new MemoryStore();
  private readonly messenger = new MemoryMessenger();
  private readonly presence = new MemoryPresence(this.clock);
  private readonly servers = new Map<string, DemoServer>();
  private readonly listeners = new Set<WorldListener>();

  /**
   * Starts server `label` (its jobId too) with the seed's default options; `handoff: false` runs
   * it as an older build would: no subscription, no presence beat, locks without the flag.
   * `messages: true` gives it an `onMessage` (a grant adds its coins): each of its loads then
   * reads the profile's inbox too (one store call, 100 ms here), so only the messages cases
   * ask for it, and the lock handoff cases keep their waits.
   */
  async server(
    label: string,
    options: { handoff?: boolean; messages?: boolean } = {},
  ): Promise<DemoServer> {
    const scheduler = this.clock;
    const emit = (event: StoryEvent['type']) =>
      this.emit({ type: event, time: this.clock.now(), jobId: label, server: label });
    const ports = {
      store: new FaultyStore(this.store, { scheduler, latencyMs: LATENCY.storeMs }),
      messenger: new FaultyMessenger(this.messenger, { scheduler, latencyMs: LATENCY.messageMs }),
      presence: new FaultyPresence(
        new BeatRecorder(this.presence, (key) => key === label && emit('presence.beat')),
        { scheduler, latencyMs: LATENCY.presenceMs },
      ),
    };
    const handoff =
      options.handoff === false
        ? undefined
        : new Handoff({
            jobId: label,
            messenger: ports.messenger,
            presence: ports.presence,
            scheduler,
            logger: quietLogger,
          });
    const driver = new DataDriver<PlayerData>({
      name: DRIVER_NAME,
      defaults: { coins: 0 },
      ...ports,
      scheduler,
      logger: quietLogger,
      jobId: label,
      handoff: handoff ?? false,
      ...(options.messages ? { onMessage: addCoins } : {}),
    });
    driver.on((event) => this.emit({ ...event, server: label }));
    const host = new MemoryHost(label);
    driver.attach(host);
    const server = new DemoServer(label, host, driver, ports, handoff, emit);
    this.servers.set(label, server);
    await this.clock.advance(0); // lets the subscription settle
    return server;
  }

  /** Calls `listener` with every event from now on. Returns a function that stops it. */
  on(listener: WorldListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The next event of one of `types` on server `label` (for profile `key` when given). */
  next<T extends WorldEventType>(
    label: string,
    types: readonly T[],
    key?: string,
  ): Promise<WorldEventOf<T>> {
    return new Promise((resolve) => {
      const off = this.on((event) => {
        if (!isEventOf(event, label, types, key)) return;
        off();
        resolve(event);
      });
    });
  }

  /** How the load of `key` that server `label` runs next ends. */
  loadOutcome(label: string, key: string) {
    return this.next(label, ['load.loaded', 'load.failed'], key);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.schedule(ms, resolve));
  }

  /** Stops every server's timers; nothing is released (the story is over). */
  async stop(): Promise<void> {
    this.listeners.clear();
    for (const server of this.servers.values()) await server.handoff?.destroy();
  }

  private emit(event: WorldEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
