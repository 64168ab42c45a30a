import { MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { fuzzSuite } from '../src/index.js';

fuzzSuite('in-memory', async () => {
  const store = new MemoryStore();
  const messenger = new MemoryMessenger();
  return {
    store,
    readJson: async (key) => store.peekJson(key),
    writeJson: async (key, json) => store.putJson(key, json),
    rawKeyOf: (key) => key,
    snapshot: async () => new Map(store.keys().map((key) => [key, store.peekJson(key) ?? ''])),
    bus: {
      messenger,
      presence: new MemoryPresence(),
      // The in-memory bus carries JSON values only: a payload that is not JSON cannot travel it.
      publishRaw: async (topic, payload) => {
        let value: unknown;
        try {
          value = JSON.parse(payload);
        } catch {
          return;
        }
        await messenger.publish(topic, value as never);
      },
      settle: () => new Promise((resolve) => setTimeout(resolve, 10)),
    },
    close: async () => undefined,
  };
});
