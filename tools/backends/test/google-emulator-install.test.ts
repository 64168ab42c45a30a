/**
 * How `startGooglePubSubEmulator` reads a gcloud install, on fake SDKs: a gcloud whose
 * pubsub-emulator component is missing or half-installed is absent on a developer's machine and
 * an error under CI=true, and the emulator is started with the environment it was given.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BackendUnavailableError,
  googlePubSubEmulatorCommand,
  startGooglePubSubEmulator,
} from '../src/index.js';

const roots: string[] = [];

afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A fake SDK: `bin/gcloud` running `script`, and the component's parts named in `parts`. */
async function fakeSdk(parts: { launcher: boolean; jar: boolean }, script = 'exit 1') {
  const root = await mkdtemp(join(tmpdir(), 'fake-gcloud-'));
  roots.push(root);
  await mkdir(join(root, 'bin'));
  const gcloud = join(root, 'bin', 'gcloud');
  await writeFile(gcloud, `#!/bin/sh\n${script}\n`);
  await chmod(gcloud, 0o755);
  const component = join(root, 'platform', 'pubsub-emulator');
  await mkdir(join(component, 'bin'), { recursive: true });
  await mkdir(join(component, 'lib'));
  if (parts.launcher) await writeFile(join(component, 'bin', 'cloud-pubsub-emulator'), '');
  if (parts.jar)
    await writeFile(join(component, 'lib', 'cloud-pubsub-emulator-0.8.20-all.jar'), '');
  return { root, gcloud, bin: join(root, 'bin') };
}

describe("Google's emulator install", () => {
  for (const [what, parts] of [
    ['missing', { launcher: false, jar: false }],
    ['half-installed (no jar)', { launcher: true, jar: false }],
    ['half-installed (no launcher)', { launcher: false, jar: true }],
  ] as const) {
    it(`a gcloud whose pubsub-emulator component is ${what}: absent locally, an error under CI=true`, async () => {
      const { bin } = await fakeSdk(parts);
      expect(googlePubSubEmulatorCommand({ PATH: bin })).toBeUndefined();
      expect(await startGooglePubSubEmulator({ env: { PATH: bin } })).toBeUndefined();
      const ci = { PATH: bin, CI: 'true' };
      expect(() => googlePubSubEmulatorCommand(ci)).toThrow(BackendUnavailableError);
      expect(() => googlePubSubEmulatorCommand(ci)).toThrow(
        /its pubsub-emulator component is missing or half-installed \(no .*\), and CI=true/,
      );
      await expect(startGooglePubSubEmulator({ env: ci })).rejects.toThrow(BackendUnavailableError);
    });
  }

  it('a whole component is found, and the emulator is started with the env it was given', async () => {
    const marker = join(tmpdir(), `gcloud-env-${process.pid}-${Date.now()}`);
    roots.push(marker);
    const script = `echo "$DD_GCLOUD_MARKER" > "${marker}"; exit 1`;
    const { bin, gcloud } = await fakeSdk({ launcher: true, jar: true }, script);
    const env = { PATH: bin, DD_GCLOUD_MARKER: 'from-options' };
    expect(googlePubSubEmulatorCommand(env)).toBe(gcloud);
    // The fake gcloud exits at once: the start fails, after it ran with that env.
    await expect(startGooglePubSubEmulator({ env })).rejects.toThrow(BackendUnavailableError);
    expect((await readFile(marker, 'utf8')).trim()).toBe('from-options');
  });
});
