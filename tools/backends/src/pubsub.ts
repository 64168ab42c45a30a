import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LaunchOptions, PubSubBackend } from './backend.js';
import { BackendUnavailableError } from './errors.js';
import { withFreePort } from './free-port.js';
import { launchChild } from './launch-child.js';
import { acceptsConnections } from './probes.js';
import { withTimeout } from './timeout.js';

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 30_000;
const EMULATOR_PACKAGE = '@datadriver/pubsub-emulator';
const BUILD_HINT = `Build it first: \`pnpm --filter ${EMULATOR_PACKAGE} build\` (turbo does this for \`test\`).`;

/** What we rely on from @datadriver/pubsub-emulator. */
interface EmulatorHandle {
  host: string;
  port: number;
  stop(): Promise<void>;
}
type StartEmulator = (options?: { host?: string; port?: number }) => Promise<EmulatorHandle>;

/**
 * Our own Pub/Sub emulator (@datadriver/pubsub-emulator) on a free port, or the one named by
 * PUBSUB_EMULATOR_HOST. It runs inside this process, so it cannot outlive the run, unless
 * `ownProcess` asks for a node process of its own (killed when this one exits).
 */
export async function startPubSub(options: LaunchOptions = {}): Promise<PubSubBackend> {
  const env = options.env ?? process.env;
  const external = env.PUBSUB_EMULATOR_HOST;
  if (external) return pubSubBackend(external, true, async () => {});
  if (options.ownProcess) return startEmulatorProcess();
  const start = await loadEmulator();
  return withFreePort(async (port) => {
    const emulator = await startEmulator(start, port);
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= emulator.stop();
      return stopping;
    };
    return pubSubBackend(`${emulator.host}:${emulator.port}`, false, stop);
  });
}

/** The emulator's command-line server (its `bin`) in a node process of its own. */
function startEmulatorProcess(): Promise<PubSubBackend> {
  const cli = emulatorCli();
  return withFreePort(async (port) => {
    const server = await launchChild({
      backend: 'pubsub',
      program: `node ${cli}`,
      child: spawn(process.execPath, [cli, '--host', HOST, '--port', String(port)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      probe: () => acceptsConnections(HOST, port),
      timeoutMs: START_TIMEOUT_MS,
      advice: BUILD_HINT,
    });
    return pubSubBackend(`${HOST}:${port}`, false, () => server.stop());
  });
}

function emulatorCli(): string {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${EMULATOR_PACKAGE}/package.json`);
    return join(dirname(manifest), 'dist', 'cli.js');
  } catch (error) {
    const message = `${EMULATOR_PACKAGE} could not be found (${String(error)}). ${BUILD_HINT}`;
    throw new BackendUnavailableError('pubsub', message, { cause: error });
  }
}

async function startEmulator(start: StartEmulator, port: number): Promise<EmulatorHandle> {
  const starting = start({ host: HOST, port });
  try {
    return await withTimeout(starting, START_TIMEOUT_MS);
  } catch (error) {
    // Should it come up after we gave up, shut it down rather than keep a server in this process.
    starting.then((late) => late.stop()).catch(() => {});
    const message = `${EMULATOR_PACKAGE} failed to start on ${HOST}:${port}: ${String(error)}`;
    throw new BackendUnavailableError('pubsub', message, { cause: error });
  }
}

async function loadEmulator(): Promise<StartEmulator> {
  let loaded: { startPubSubEmulator?: unknown };
  try {
    // Imported lazily, through a variable: users of Redis alone don't pay for gRPC, and this
    // package type-checks and builds even before the emulator package has been built.
    const specifier: string = EMULATOR_PACKAGE;
    loaded = await import(specifier);
  } catch (error) {
    const message = `${EMULATOR_PACKAGE} could not be loaded (${String(error)}). ${BUILD_HINT}`;
    throw new BackendUnavailableError('pubsub', message, { cause: error });
  }
  if (typeof loaded.startPubSubEmulator !== 'function') {
    const message = `${EMULATOR_PACKAGE} does not export startPubSubEmulator(). ${BUILD_HINT}`;
    throw new BackendUnavailableError('pubsub', message);
  }
  return loaded.startPubSubEmulator as StartEmulator;
}

/** Shapes a Pub/Sub backend; `endpoint` is host:port, as PUBSUB_EMULATOR_HOST has it. */
export function pubSubBackend(
  endpoint: string,
  external: boolean,
  stop: () => Promise<void>,
): PubSubBackend {
  return { name: 'pubsub', url: `http://${endpoint}`, endpoint, external, stop };
}
