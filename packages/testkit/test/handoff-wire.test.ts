import { MemoryMessenger } from '@datadriver/core/testing';
import { expect, it } from 'vitest';
import { sendWireSamples, WIRE_SAMPLES } from '../src/cluster/index.js';

it("puts the handoff's request and reply on the in-memory bus exactly, key order included", async () => {
  const messenger = new MemoryMessenger();
  const received: Array<{ topic: string; bytes: string }> = [];
  for (const topic of ['CKHandoff_server-a', 'CKHandoff_server-b']) {
    await messenger.subscribe(topic, (message) =>
      received.push({ topic, bytes: JSON.stringify(message) }),
    );
  }
  await sendWireSamples(messenger);
  expect(received).toEqual(WIRE_SAMPLES);
});
