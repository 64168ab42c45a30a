/** The part of dynamodb-lock-client (plain CommonJS, no types of its own) that the bench uses. */
declare module 'dynamodb-lock-client' {
  import type { EventEmitter } from 'node:events';

  type Callback<T> = (error: Error | null | undefined, value?: T) => void;

  /** A document client: aws-sdk v2's DynamoDB.DocumentClient, as the library expects. */
  interface DocumentClientLike {
    get(params: object, callback: Callback<unknown>): unknown;
    put(params: object, callback: Callback<unknown>): unknown;
    delete(params: object, callback: Callback<unknown>): unknown;
  }

  interface FailOpenConfig {
    readonly dynamodb: DocumentClientLike;
    readonly lockTable: string;
    readonly partitionKey: string;
    readonly heartbeatPeriodMs?: number;
    readonly leaseDurationMs: number;
    readonly trustLocalTime?: boolean;
    readonly retryCount?: number;
    readonly owner?: string;
  }

  interface Lock extends EventEmitter {
    readonly fencingToken: number;
    release(callback: Callback<void>): void;
  }

  class FailOpen {
    constructor(config: FailOpenConfig);
    acquireLock(id: string, callback: Callback<Lock>): void;
  }

  const client: { FailOpen: typeof FailOpen };
  export default client;
  export type { DocumentClientLike, FailOpenConfig, Lock };
}
