/**
 * Google's own emulator, started once per run by the global setup where gcloud has it. Where
 * it is absent, the tests written for it are not registered; one test checks that it truly is
 * absent, so a machine that has gcloud can never pass without running them.
 */
import { googlePubSubEmulatorCommand } from '@datadriver/backends';
import { expect, inject, it } from 'vitest';

export function onGoogleEmulator(register: (endpoint: string) => void): void {
  const endpoint = inject('googlePubsubEmulatorHost');
  if (endpoint) {
    register(endpoint);
    return;
  }
  it("finds no Google emulator on this machine (gcloud's pubsub-emulator is absent)", () => {
    expect(googlePubSubEmulatorCommand()).toBeUndefined();
  });
}
