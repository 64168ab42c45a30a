import type { ProvidedContext } from 'vitest';

/**
 * Addresses the global setup hands to test files through vitest's provide/inject. Declaring them
 * on vitest's ProvidedContext makes `inject('redisUrl')` typed as a string in every package whose
 * TypeScript program imports this one (its test/global-setup.ts does).
 */
declare module 'vitest' {
  interface ProvidedContext {
    /** `redis://127.0.0.1:PORT`, or REDIS_URL. */
    redisUrl: string;
    /** A Redis Cluster's nodes, `127.0.0.1:PORT,127.0.0.1:PORT,...`, or REDIS_CLUSTER_NODES. */
    redisClusterNodes: string;
    /** `http://127.0.0.1:PORT`, or DDB_ENDPOINT. */
    dynamoEndpoint: string;
    /** `127.0.0.1:PORT`, or PUBSUB_EMULATOR_HOST. */
    pubsubEmulatorHost: string;
    /** `postgres://postgres@127.0.0.1:PORT/postgres`, or DATABASE_URL. */
    postgresUrl: string;
    /** Google's emulator, `127.0.0.1:PORT`; empty where gcloud has no pubsub-emulator. */
    googlePubsubEmulatorHost: string;
  }
}

export type ProvidedKey =
  | 'redisUrl'
  | 'redisClusterNodes'
  | 'dynamoEndpoint'
  | 'pubsubEmulatorHost'
  | 'googlePubsubEmulatorHost'
  | 'postgresUrl';

/** The provided addresses as one object. Using vitest's type here also keeps the `vitest` import
 * in the bundled .d.ts, without which TypeScript rejects the augmentation above (TS2664). */
export type BackendAddresses = Pick<ProvidedContext, ProvidedKey>;
