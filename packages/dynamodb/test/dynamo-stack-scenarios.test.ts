/**
 * The testkit's handoff scenarios on the stack with no Redis: DynamoStore and DynamoPresence on
 * DynamoDB Local, and PubSubMessenger on the run's Pub/Sub emulator (the one messenger that
 * needs no Redis), each server with its own connections. Same scale as the other stacks.
 */
import { runHandoffScenarios } from '@datadriver/testkit';
import { inject } from 'vitest';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';
import { presenceTable } from './support/presence-table.js';
import { scenarioTable } from './support/scenario-table.js';
import { dynamoPresence, pubSubMessenger } from './support/stack-ports.js';

const scale = Number(process.env.DD_SCALE ?? 0.1);
const table = scenarioTable('dynamo-stack', { clients: 12 });
const beats = presenceTable('dynamo-stack-beats');

runHandoffScenarios(
  'DynamoDB store + DynamoPresence + Pub/Sub messages',
  () =>
    dynamoClusterBackend({
      direct: table.direct,
      pool: table.pool,
      tableName: table.tableName,
      scale,
      presence: dynamoPresence(beats.tableName),
      messenger: pubSubMessenger(inject('pubsubEmulatorHost')),
    }),
  { concurrent: true },
);
