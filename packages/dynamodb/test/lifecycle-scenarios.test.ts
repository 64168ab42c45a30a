/**
 * The testkit's restoreAt and erase scenarios with versioned DynamoStores: restoreAt and erase
 * on server B while the player is live on A, through handoff. Versions are stamped by the
 * writers' clocks, which restoreAt's time is compared against (one machine's clock here).
 * Same scale as the handoff scenarios; DD_SCALE overrides it.
 */
import { runLifecycleScenarios } from '@datadriver/testkit';
import { dynamoClusterBackend } from './support/dynamo-cluster-backend.js';
import { scenarioTable } from './support/scenario-table.js';

const scale = Number(process.env.DD_SCALE ?? 0.1);
const table = scenarioTable('lifecycle', { clients: 4, versions: true });

runLifecycleScenarios('DynamoDB Local + in-memory messenger and presence', () =>
  dynamoClusterBackend({
    direct: table.direct,
    pool: table.pool,
    tableName: table.tableName,
    scale,
    versions: { keep: 50, tableName: `${table.tableName}-versions` },
  }),
);
