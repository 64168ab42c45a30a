import './provided-context.js';

export type {
  Backend,
  ClusterShard,
  DynamoLocalBackend,
  Env,
  KillOptions,
  LaunchOptions,
  PostgresBackend,
  PubSubBackend,
  RedisBackend,
  RedisClusterBackend,
} from './backend.js';
export { isCi } from './ci.js';
export { startDynamoLocal } from './dynamodb-local.js';
export { BackendUnavailableError } from './errors.js';
export {
  type ForkedEvent,
  type ForkedMessage,
  ForkedServer,
  type ForkedServerOptions,
  sendToParent,
  serveOverIpc,
} from './forked-server.js';
export { freePort } from './free-port.js';
export {
  type BackendKind,
  backendsGlobalSetup,
  dynamoLocalGlobalSetup,
  type GlobalSetup,
  pubSubGlobalSetup,
  redisGlobalSetup,
  type Teardown,
} from './global-setup.js';
export {
  googlePubSubEmulatorCommand,
  startGooglePubSubEmulator,
} from './google-pubsub-emulator.js';
export { type PostgresLaunchOptions, startPostgres } from './postgres.js';
export { findPostgresBin } from './postgres-install.js';
export type { BackendAddresses, ProvidedKey } from './provided-context.js';
export { startPubSub } from './pubsub.js';
export { startRedis } from './redis.js';
export { type RedisClusterOptions, startRedisCluster } from './redis-cluster.js';
export { hasExited, type StopOptions, stopProcess } from './stop-process.js';
export { stopWithParent } from './stop-with-parent.js';
export { type ProxyTarget, startTcpProxy, type TcpProxy } from './tcp-proxy.js';
