/**
 * The handoff's wire format, byte for byte: what a server on another implementation of the rules
 * must read and write to talk to ours. Adapters' tests send these through a real `Handoff` on
 * their messenger and read them off the real bus with the backend's own client.
 */
import { DataDriver, type DataDriverEvent, Handoff, type Messenger } from '@datadriver/core';
import { MemoryHost, MemoryPresence, MemoryStore } from '@datadriver/core/testing';

/** The messages `sendWireSamples` sends: each topic, and the exact UTF-8 payload on it. */
export const WIRE_SAMPLES = Object.freeze([
  {
    topic: 'CKHandoff_server-a',
    bytes: '{"T":"Q","D":"PlayerData","K":"user-42","R":"server-b","L":"token-7"}',
  },
  { topic: 'CKHandoff_server-a', bytes: '{"T":"Q","D":"PlayerData","K":"user-42","R":"server-b"}' },
  { topic: 'CKHandoff_server-b', bytes: '{"T":"R","D":"PlayerData","K":"user-42"}' },
] as const);

/**
 * Server B asks server A to release `user-42` of driver `PlayerData`, naming the lock token it
 * saw and then naming none; A replies. Each goes through a real `Handoff` on `messenger`.
 */
export async function sendWireSamples(messenger: Messenger): Promise<void> {
  const presence = new MemoryPresence();
  const b = new Handoff({ jobId: 'server-b', messenger, presence });
  const a = new Handoff({ jobId: 'server-a', messenger, presence });
  try {
    await b.request('PlayerData', 'user-42', 'server-a', 'token-7');
    await b.request('PlayerData', 'user-42', 'server-a');
    await a.reply('PlayerData', 'user-42', 'server-b');
  } finally {
    await Promise.all([a.destroy(), b.destroy()]);
  }
}

/**
 * A request as another implementation of the rules may put it on the bus: the fields in another
 * order, and one this build does not know (which it must ignore). For A to act on.
 */
export const FOREIGN_REQUEST_BYTES =
  '{"R":"server-b","K":"user-42","X":"extra","D":"PlayerData","T":"Q"}';

/** What A must answer it with, byte for byte, on CKHandoff_server-b. */
export const REPLY_BYTES = WIRE_SAMPLES[2].bytes;

/** Server A holding `user-42` of driver `PlayerData`, its handoff on `messenger`. */
export interface WireHolder {
  readonly events: readonly DataDriverEvent[];
  /** The messages A's player was kicked with. */
  kicks(): string[];
  /** Resolves once A has received a request for `user-42` and released it. */
  released(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts server A (jobId `server-a`) on `messenger`, with an in-memory store, and loads
 * `user-42` for a player on it: a test then publishes raw bytes to A's topic with the backend's
 * own client and reads A's reply off the bus the same way.
 */
export async function wireHolder(messenger: Messenger): Promise<WireHolder> {
  const presence = new MemoryPresence();
  const handoff = new Handoff({ jobId: 'server-a', messenger, presence });
  const driver = new DataDriver<{ coins: number }>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: new MemoryStore(),
    messenger,
    presence,
    jobId: 'server-a',
    handoff,
  });
  const events: DataDriverEvent[] = [];
  driver.on((event) => events.push(event));
  handoff.on((event) => events.push(event));
  const host = new MemoryHost('server-a');
  driver.attach(host);
  const seen = (type: DataDriverEvent['type']) =>
    events.some((event) => event.type === type && 'key' in event && event.key === 'user-42');
  const until = async (type: DataDriverEvent['type'], what: string) => {
    const deadline = Date.now() + 10_000;
    while (!seen(type)) {
      if (Date.now() > deadline) throw new Error(`server A: ${what} did not happen within 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const subscribed = Date.now() + 10_000;
  while (!handoff.subscribed) {
    if (Date.now() > subscribed) throw new Error('server A did not subscribe within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  host.join('user-42');
  await until('load.loaded', 'the load of user-42');
  return {
    events,
    kicks: () => host.kicks.map((kick) => kick.message),
    released: () => until('profile.released', 'the release of user-42'),
    async close() {
      await driver.close({ deadlineSeconds: 1 });
      await handoff.destroy();
    },
  };
}
