import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Env, LaunchOptions, PubSubBackend } from './backend.js';
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
      env: { ...process.env, CLOUDSDK_CORE_DISABLE_PROMPTS: '1' },
    }),
    group: true,
    probe: () => httpAnswers(`http://${HOST}:${port}/`),
    timeoutMs: START_TIMEOUT_MS,
    advice: ADVICE,
  });
}

/**
 * gcloud itself, if it is on PATH and its SDK has the pubsub-emulator component beside it:
 * where this is undefined, `startGooglePubSubEmulator()` resolves undefined.
 */
export function googlePubSubEmulatorCommand(env: Env = process.env): string | undefined {
  const gcloud = findOnPath('gcloud', env);
  if (!gcloud) return undefined;
  // PATH usually holds a symlink (/usr/bin/gcloud); the SDK is two levels above the real file.
  const sdkRoot = dirname(dirname(realpathSync(gcloud)));
  return existsSync(join(sdkRoot, 'platform', 'pubsub-emulator')) ? gcloud : undefined;
}
