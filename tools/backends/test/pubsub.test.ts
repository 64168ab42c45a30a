import { describe, expect, it } from 'vitest';
import { findOnPath } from '../src/find-program.js';
import { startGooglePubSubEmulator, startPubSub } from '../src/index.js';
import { isListening, processesMentioning } from './helpers.js';

function portOf(endpoint: string): number {
  return Number(endpoint.split(':').at(-1));
}

describe('startPubSub', () => {
  it('starts @datadriver/pubsub-emulator on a loopback port and stops it', async () => {
    const pubsub = await startPubSub({ env: {} });
    expect(pubsub.external).toBe(false);
    expect(pubsub.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(pubsub.url).toBe(`http://${pubsub.endpoint}`);
    expect(await isListening('127.0.0.1', portOf(pubsub.endpoint))).toBe(true);
    await pubsub.stop();
    await pubsub.stop(); // twice is fine
    expect(await isListening('127.0.0.1', portOf(pubsub.endpoint))).toBe(false);
  });

  it('runs it in a node process of its own with ownProcess, and stop() ends that process', async () => {
    const pubsub = await startPubSub({ env: {}, ownProcess: true });
    const port = portOf(pubsub.endpoint);
    expect(pubsub.external).toBe(false);
    expect(await isListening('127.0.0.1', port)).toBe(true);
    const servers = processesMentioning(`--port ${port}`);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toContain('pubsub-emulator');
    expect(servers[0]?.startsWith(`${process.pid}:`)).toBe(false);
    await pubsub.stop();
    expect(await isListening('127.0.0.1', port)).toBe(false);
    expect(processesMentioning(`--port ${port}`)).toEqual([]);
  });

  it('uses PUBSUB_EMULATOR_HOST when set', async () => {
    const pubsub = await startPubSub({ env: { PUBSUB_EMULATOR_HOST: 'pubsub.example:8085' } });
    expect(pubsub).toMatchObject({ external: true, endpoint: 'pubsub.example:8085' });
    await pubsub.stop();
  });
});

describe('startGooglePubSubEmulator', () => {
  it('reports "not available" (undefined) when gcloud is absent', async () => {
    expect(await startGooglePubSubEmulator({ env: { PATH: '/nonexistent' } })).toBeUndefined();
  });

  it("runs Google's emulator where gcloud has it, and stop() takes java down too", async () => {
    const started = Date.now();
    const google = await startGooglePubSubEmulator();
    if (google === undefined) {
      // Not a skip: undefined is only correct when this machine really has no gcloud.
      expect(findOnPath('gcloud')).toBeUndefined();
      return;
    }
    console.info(`Google Pub/Sub emulator ready in ${Date.now() - started} ms`);
    const port = portOf(google.endpoint);
    expect(await (await fetch(`${google.url}/`)).text()).toMatch(/Ok/);
    await google.stop();
    expect(await isListening('127.0.0.1', port)).toBe(false);
    expect(processesMentioning(`--port=${port}`)).toEqual([]);
  });
});
