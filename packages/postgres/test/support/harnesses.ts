/** The conformance suites' harnesses: the run's PostgreSQL behind a TCP proxy. */
import type { MessengerHarness, Outage, PresenceHarness, StoreHarness } from '@datadriver/testkit';
import type pg from 'pg';
import { PostgresMessenger, PostgresPresence, PostgresStore } from '../../src/index.js';
import {
  freshSchema,
  Pools,
  postgresProxy,
  postgresUrl,
  quiet,
  throughProxy,
  uniqueSchema,
} from './postgres.js';

/** Pools of one server: `connect` goes through what `outage` cuts, `raw` does not. */
export interface Target {
  connect(): pg.Pool;
  readonly raw: pg.Pool;
  readonly outage: Outage;
  close(): Promise<void>;
}

export async function proxiedTarget(): Promise<Target> {
  const url = postgresUrl();
  const proxy = await postgresProxy(url);
  const pools = new Pools();
  return {
    connect: () => pools.open(throughProxy(url, proxy)),
    raw: pools.open(url),
    outage: proxy,
    close: async () => {
      await pools.endAll();
      await proxy.close();
    },
  };
}

/** Stores keeping `keep` versions in a schema of their own; `read` looks at the row itself. */
export function storeHarness(keep: number) {
  return async (): Promise<StoreHarness> => {
    const target = await proxiedTarget();
    const schema = await freshSchema(target.raw, 'store');
    return {
      connect: async () =>
        new PostgresStore({ pool: target.connect(), schema, versions: { keep } }),
      read: async (key) => {
        const { rows } = await target.raw.query<{ record: string }>(
          `SELECT record FROM "${schema}".records WHERE key = $1`,
          [Buffer.from(key, 'utf8')],
        );
        return rows[0] === undefined ? undefined : JSON.parse(rows[0].record);
      },
      outage: target.outage,
      close: () => target.close(),
    };
  };
}

/** Presences in a schema of their own. */
export function presenceHarness() {
  return async (): Promise<PresenceHarness> => {
    const target = await proxiedTarget();
    const schema = await freshSchema(target.raw, 'presence');
    return {
      connect: async () => new PostgresPresence({ pool: target.connect(), schema }),
      outage: target.outage,
      close: () => target.close(),
    };
  };
}

/** Messengers whose channels no other suite shares; `publishRaw` notifies past the adapter. */
export function messengerHarness() {
  return async (): Promise<MessengerHarness> => {
    const target = await proxiedTarget();
    const schema = uniqueSchema('messenger');
    const messengers: PostgresMessenger[] = [];
    return {
      connect: async () => {
        const messenger = new PostgresMessenger({ pool: target.connect(), schema, logger: quiet });
        messengers.push(messenger);
        return messenger;
      },
      publishRaw: async (topic, payload) => {
        const channel = new PostgresMessenger({ pool: target.raw, schema }).channelOf(topic);
        await target.raw.query('SELECT pg_notify($1, $2)', [channel, payload]);
      },
      outage: target.outage,
      close: async () => {
        await Promise.all(messengers.map((messenger) => messenger.close()));
        await target.close();
      },
    };
  };
}
