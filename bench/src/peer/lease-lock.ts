/**
 * The peer: dynamodb-lock-client's fail-open lease lock (lease with heartbeats) on DynamoDB
 * Local, through aws-sdk v2's DocumentClient, the client the library is written for. Promise
 * wrappers and a document client that reports each heartbeat write.
 */
import { Agent } from 'node:http';
import AWS from 'aws-sdk';
import DynamoDBLockClient, { type DocumentClientLike, type Lock } from 'dynamodb-lock-client';

export const PEER_TABLE = 'datadriver-bench-peer-locks';
export const PEER_KEY_ATTRIBUTE = 'id';

export interface LeaseSettings {
  readonly endpoint: string;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  /** Acquire attempts after the first that found the lock taken (each waits a whole lease). */
  readonly retryCount: number;
}

export function documentClient(endpoint: string): AWS.DynamoDB.DocumentClient {
  return new AWS.DynamoDB.DocumentClient({
    endpoint,
    region: 'us-east-1',
    credentials: new AWS.Credentials({ accessKeyId: 'local', secretAccessKey: 'local' }),
    // Kept-alive connections, as DataDriver's v3 client has by default: the comparison is of
    // the locks, not of a TCP handshake per call.
    httpOptions: { agent: new Agent({ keepAlive: true }) },
  });
}

/** Calls `onWrite` after every successful put: after the acquire, those are the heartbeats. */
export function watchingPuts(
  inner: AWS.DynamoDB.DocumentClient,
  onWrite: () => void,
): DocumentClientLike {
  return {
    get: (params, callback) =>
      inner.get(params as AWS.DynamoDB.DocumentClient.GetItemInput, callback),
    delete: (params, callback) =>
      inner.delete(params as AWS.DynamoDB.DocumentClient.DeleteItemInput, callback),
    put: (params, callback) =>
      inner.put(params as AWS.DynamoDB.DocumentClient.PutItemInput, (error, data) => {
        if (!error) onWrite();
        callback(error, data);
      }),
  };
}

export function leaseClient(settings: LeaseSettings, dynamodb: DocumentClientLike) {
  return new DynamoDBLockClient.FailOpen({
    dynamodb,
    lockTable: PEER_TABLE,
    partitionKey: PEER_KEY_ATTRIBUTE,
    leaseDurationMs: settings.leaseMs,
    heartbeatPeriodMs: settings.heartbeatMs,
    retryCount: settings.retryCount,
  });
}

/** A failed heartbeat of each lock held, for `release` to report. */
const heartbeatFailures = new WeakMap<Lock, Error>();

/**
 * The library reports a failed heartbeat (a put after the acquire) only as an 'error' event
 * on the lock, which with no listener ends the process: the failure is kept here instead, and
 * `release` rejects with it, so it fails the trial that held the lock.
 */
export function acquire(client: ReturnType<typeof leaseClient>, key: string): Promise<Lock> {
  return new Promise((resolve, reject) => {
    client.acquireLock(key, (error, lock) => {
      if (error || !lock) return reject(error);
      lock.on('error', (failure: Error) => {
        if (!heartbeatFailures.has(lock)) heartbeatFailures.set(lock, failure);
      });
      resolve(lock);
    });
  });
}

/** Releases `lock`; rejects if its release or one of its heartbeats failed. */
export function release(lock: Lock): Promise<void> {
  return new Promise((resolve, reject) => {
    lock.release((error) => {
      const failure = error ?? heartbeatFailures.get(lock);
      return failure ? reject(failure) : resolve();
    });
  });
}
