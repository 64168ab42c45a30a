import { startGooglePubSubEmulator } from '@datadriver/backends';
import { messengerConformance } from '@datadriver/testkit';
import { afterAll, inject } from 'vitest';
import { pubSubHarness } from './support/messenger-harness.js';

messengerConformance('Pub/Sub on the local emulator', () =>
  pubSubHarness(inject('pubsubEmulatorHost')),
);

// Google's emulator runs where gcloud has it (decided here, when the file loads: a failure
// to start it fails the file). It ignores subscription filters, so passing here shows that
// the messenger checks each message's address on receipt.
const google = await startGooglePubSubEmulator();
if (google) {
  afterAll(() => google.stop());
  messengerConformance("Pub/Sub on Google's emulator", () => pubSubHarness(google.endpoint));
}
