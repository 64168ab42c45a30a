/**
 * The testkit's handoff scenarios on the stack "DynamoDB store + Redis presence and messages":
 * DynamoStore on DynamoDB Local, RedisPresence and RedisMessenger on the run's redis-server,
 * each server with its own connections. 0.1 real seconds per seed second, as on Redis; the
 * scenarios run at once (the two that wait out 241 seed seconds take 24 s). DD_SCALE overrides
 * the scale.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { inject } from 'vitest';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';
import { scenarioTable } from './support/scenario-table.js';
import { redisMessenger, redisPresence } from './support/stack-ports.js';

const scale = Number(process.env.DD_SCALE ?? 0.1);
const table = scenarioTable('handoff', { clients: 12 });

runHandoffScenarios(
  'DynamoDB store + Redis presence and messages',
  () =>
    dynamoClusterBackend({
      direct: table.direct,
      pool: table.pool,
      tableName: table.tableName,
      scale,
      presence: redisPresence(inject('redisUrl')),
      messenger: redisMessenger(inject('redisUrl')),
    }),
  { concurrent: true },
);
