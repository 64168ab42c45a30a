import { messengerConformance } from '@datadriver/testkit';
import { inject } from 'vitest';
import { onGoogleEmulator } from './support/google-emulator.js';
import { pubSubHarness } from './support/messenger-harness.js';

messengerConformance('Pub/Sub on the local emulator', () =>
  pubSubHarness(inject('pubsubEmulatorHost')),
);

// Google's emulator ignores subscription filters, so passing there shows that the messenger
// checks each message's address on receipt.
onGoogleEmulator((endpoint) =>
  messengerConformance("Pub/Sub on Google's emulator", () => pubSubHarness(endpoint)),
);
