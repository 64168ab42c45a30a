import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import { BackendUnavailableError, backendsGlobalSetup, type ProvidedKey } from '../src/index.js';
import { isListening, parsePort, rawPing } from './helpers.js';

/** Just enough of vitest's TestProject for the setup: it only calls provide(). */
function fakeProject(): { project: TestProject; provided: Map<ProvidedKey, string> } {
  const provided = new Map<ProvidedKey, string>();
  const provide = (key: ProvidedKey, value: string): void => {
    provided.set(key, value);
  };
  return { project: { provide } as unknown as TestProject, provided };
}

describe('backendsGlobalSetup', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('provided this run a Redis that test files reach through inject()', async () => {
    const url = inject('redisUrl');
    expect(await rawPing('127.0.0.1', parsePort(url))).toBe('+PONG\r\n');
  });

  it('provides each address and stops the backends at teardown', async () => {
    vi.stubEnv('REDIS_URL', '');
    const { project, provided } = fakeProject();
    const teardown = await backendsGlobalSetup('redis')(project);
    const url = provided.get('redisUrl') ?? '';
    expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    expect(await isListening('127.0.0.1', parsePort(url))).toBe(true);
    await teardown();
    expect(await isListening('127.0.0.1', parsePort(url))).toBe(false);
  });

  it('fails the run when a backend cannot start', async () => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('PATH', '/nonexistent');
    const { project } = fakeProject();
    await expect(backendsGlobalSetup('redis')(project)).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
  });

  it("provides '' for Google's emulator where gcloud is absent, and passes the run", async () => {
    vi.stubEnv('PATH', '/nonexistent');
    const { project, provided } = fakeProject();
    const teardown = await backendsGlobalSetup('google-pubsub')(project);
    expect(provided.get('googlePubsubEmulatorHost')).toBe('');
    await teardown();
  });
});
