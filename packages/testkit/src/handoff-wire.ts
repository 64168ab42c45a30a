/**
 * The seed's wire format, byte for byte: what a server on another implementation of the seed
 * must read and write to talk to ours. Adapters' tests send these through a real `Handoff` on
 * their messenger and read them off the real bus with the backend's own client.
 */
import { Handoff, type Messenger } from '@datadriver/core';
import { MemoryPresence } from '@datadriver/core/testing';

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
