import {
  FaultyMessenger,
  FaultyPresence,
  FaultyStore,
  type InjectedFault,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
} from '@datadriver/core/testing';
import { messengerConformance, presenceConformance, storeConformance } from '../src/index.js';

/** An outage of the in-memory backend: every connection's calls fail until it is over. */
function outageOf(connections: Array<FaultyStore | FaultyMessenger | FaultyPresence>) {
  let faults: InjectedFault[] = [];
  return {
    stop: async () => {
      faults = connections.map((c) =>
        c.faults.inject({ kind: 'fail', times: Number.POSITIVE_INFINITY }),
      );
    },
    start: async () => {
      for (const fault of faults) fault.remove();
    },
  };
}

storeConformance(
  'in-memory',
  async () => {
    const store = new MemoryStore({ versions: { keep: 5 } });
    const connections: FaultyStore[] = [];
    return {
      connect: async () => {
        const connection = new FaultyStore(store);
        connections.push(connection);
        return connection;
      },
      read: async (key) => store.peek(key),
      outage: outageOf(connections),
      close: async () => undefined,
    };
  },
  { versions: { keep: 5 } },
);

messengerConformance('in-memory', async () => {
  const messenger = new MemoryMessenger();
  const connections: FaultyMessenger[] = [];
  return {
    connect: async () => {
      const connection = new FaultyMessenger(messenger);
      connections.push(connection);
      return connection;
    },
    outage: outageOf(connections),
    close: async () => undefined,
  };
});

presenceConformance(
  'in-memory',
  async () => {
    const presence = new MemoryPresence();
    const connections: FaultyPresence[] = [];
    return {
      connect: async () => {
        const connection = new FaultyPresence(presence);
        connections.push(connection);
        return connection;
      },
      outage: outageOf(connections),
      close: async () => undefined,
    };
  },
  { getEntry: true },
);
