import { spawn } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Env, LaunchOptions, PubSubBackend } from './backend.js';
import { isCi } from './ci.js';
import { BackendUnavailableError } from './errors.js';
import { findOnPath } from './find-program.js';
import { withFreePort } from './free-port.js';
import { launchChild } from './launch-child.js';
import type { ManagedChild } from './managed-child.js';
import { httpAnswers } from './probes.js';
import { pubSubBackend } from './pubsub.js';

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 60_000;
const ADVICE =
  'It needs Java 17+ (`apt-get install -y openjdk-17-jre-headless`) and the pubsub-emulator ' +
  'component (`apt-get install -y google-cloud-cli-pubsub-emulator`).';

/**
 * Google's own Pub/Sub emulator via gcloud, for checking our emulator against the reference.
 * Resolves undefined when gcloud or its pubsub-emulator component is not installed: this one is
 * optional, unlike `startPubSub()`. PUBSUB_EMULATOR_HOST is ignored, since the point is Google's.
 */
export async function startGooglePubSubEmulator(
  options: LaunchOptions = {},
): Promise<PubSubBackend | undefined> {
  const env = options.env ?? process.env;
  const gcloud = googlePubSubEmulatorCommand(env);
  if (!gcloud) return undefined;
  // Its default data dir is the user's gcloud config; a temp dir keeps runs apart and $HOME clean.
  const dataDir = await mkdtemp(join(tmpdir(), 'google-pubsub-emulator-'));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  try {
    return await withFreePort(async (port) => {
      const server = await launchGoogleEmulator(gcloud, port, dataDir, env);
      const stop = () => server.stop().finally(removeDataDir);
      return pubSubBackend(`${HOST}:${port}`, false, stop);
    });
  } catch (error) {
    await removeDataDir();
    throw error;
  }
}

function launchGoogleEmulator(
  gcloud: string,
  port: number,
  dataDir: string,
  env: Env,
): Promise<ManagedChild> {
  const project = env.PUBSUB_PROJECT_ID || 'datadriver-test';
  const args = ['beta', 'emulators', 'pubsub', 'start'];
  args.push(`--host-port=${HOST}:${port}`, `--project=${project}`, `--data-dir=${dataDir}`);
  return launchChild({
    backend: 'google-pubsub-emulator',
    program: 'gcloud',
    // gcloud is a Python wrapper that starts java as its own child: run it in a process group of
    // its own (detached) so stop() can signal the group and take java down with it.
    child: spawn(gcloud, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, CLOUDSDK_CORE_DISABLE_PROMPTS: '1' },
    }),
    group: true,
    probe: () => httpAnswers(`http://${HOST}:${port}/`),
    timeoutMs: START_TIMEOUT_MS,
    advice: ADVICE,
  });
}

/**
 * gcloud itself, if it is on PATH and its SDK has the whole pubsub-emulator component beside
 * it (its launcher and its jar): where this is undefined, `startGooglePubSubEmulator()`
 * resolves undefined. A gcloud whose component is missing or half-installed is absent on a
 * developer's machine, but under CI=true it is a broken machine: BackendUnavailableError.
 */
export function googlePubSubEmulatorCommand(env: Env = process.env): string | undefined {
  const gcloud = findOnPath('gcloud', env);
  if (!gcloud) return undefined;
  // PATH usually holds a symlink (/usr/bin/gcloud); the SDK is two levels above the real file.
  const component = join(dirname(dirname(realpathSync(gcloud))), 'platform', 'pubsub-emulator');
  const missing = missingParts(component);
  if (missing.length === 0) return gcloud;
  if (!isCi(env)) return undefined;
  throw new BackendUnavailableError(
    'google-pubsub-emulator',
    `gcloud is at ${gcloud} but its pubsub-emulator component is missing or half-installed ` +
      `(no ${missing.join(', no ')} in ${component}), and CI=true: CI must run Google's ` +
      `emulator wherever gcloud is. ${ADVICE}`,
  );
}

/** What of the component is not there: its launcher, its jar. */
function missingParts(component: string): string[] {
  const missing: string[] = [];
  if (!existsSync(join(component, 'bin', 'cloud-pubsub-emulator'))) {
    missing.push('bin/cloud-pubsub-emulator');
  }
  const lib = join(component, 'lib');
  const jars = existsSync(lib) ? readdirSync(lib).filter((name) => name.endsWith('.jar')) : [];
  if (jars.length === 0) missing.push('lib/*.jar');
  return missing;
}
