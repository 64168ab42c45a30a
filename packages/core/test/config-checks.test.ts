/**
 * Bad config fails at construction with `Data.InvalidConfig` naming the option: an unknown key
 * (with the nearest known one, as it is most often a typo) and a value of the wrong type (with
 * what it got).
 */
import { describe, expect, it } from 'vitest';
import { DataDriver } from '../src/index.js';
import { MemoryStore } from '../src/testing.js';

const store = new MemoryStore();

const rows: Array<[string, Record<string, unknown>, string]> = [
  [
    'an unknown key names the nearest option',
    { lockWaitSecond: 20 },
    'unknown option lockWaitSecond (did you mean lockWaitSeconds?)',
  ],
  [
    'a key of another case names the option',
    { autoSaveSeconds: 10 },
    'unknown option autoSaveSeconds (did you mean autosaveSeconds?)',
  ],
  [
    'a key far from every option lists them',
    { colour: 'red' },
    'unknown option colour; the options are name, defaults, store, messenger, presence, scheduler, logger, jobId, handoff, handoffSigning, handoffLimits, handOverLocks, lockWaitSeconds, localHandoffSeconds, lockTtlSeconds, lockSkewSeconds, autosaveSeconds, timings, kickMessages, migrations, schema, createId, onMessage, health, beforeSave, beforeRelease, afterSave',
  ],
  [
    'an onMessage that is not a function',
    { onMessage: 'grant' },
    'onMessage must be a function, got a string ("grant")',
  ],
  [
    'a string where seconds are wanted says it got a string',
    { lockWaitSeconds: '20' },
    'lockWaitSeconds must be a non-negative number of seconds, got a string ("20")',
  ],
  [
    'a boolean where seconds are wanted',
    { autosaveSeconds: true },
    'autosaveSeconds must be a positive number of seconds, got a boolean (true)',
  ],
  [
    'kick messages that are not an object',
    { kickMessages: 5 },
    'kickMessages must be an object of kick messages, got a number (5)',
  ],
  [
    'an unknown kick message',
    { kickMessages: { lockedOut: 'x' } },
    'unknown option kickMessages.lockedOut (did you mean kickMessages.locked?)',
  ],
  [
    'a kick message that is not a string',
    { kickMessages: { locked: 7 } },
    'kickMessages.locked must be a string, got a number (7)',
  ],
  [
    'timings that are not an object',
    { timings: [] },
    'timings must be an object of handoff timings, got an array',
  ],
  [
    'an unknown timing',
    { timings: { beatSecond: 3 } },
    'unknown option timings.beatSecond (did you mean timings.beatSeconds?)',
  ],
  [
    'a timing that is a string',
    { timings: { beatSeconds: '3' } },
    'invalid timings: timings.beatSeconds must be a positive number of seconds, got a string ("3")',
  ],
  [
    'an unknown message limit',
    { handoffLimits: { receivePerMinutes: 6 } },
    'unknown option handoffLimits.receivePerMinutes (did you mean handoffLimits.receivePerMinute?)',
  ],
  [
    'a signing key too short, refused before attach',
    { handoffSigning: { key: 'short' } },
    'invalid handoff options: signing.key must be a string or bytes of at least 16 bytes',
  ],
  [
    'handoff that is a string',
    { handoff: 'on' },
    'handoff must be true (the default rule), false (off) or a Handoff, got a string ("on")',
  ],
  [
    'handoff that is an object but no Handoff',
    { handoff: { jobId: 'A' } },
    'handoff must be true (the default rule), false (off) or a Handoff, got an object',
  ],
  [
    'a logger without its methods',
    { logger: { log: () => undefined } },
    'logger must have debug, info, warn, error, got no debug, info, warn, error',
  ],
  [
    'a scheduler that is a number',
    { scheduler: 5 },
    'scheduler must have now, schedule, repeat, got a number (5)',
  ],
  [
    'migrations that are not a list',
    { migrations: {} },
    'migrations must be an array of steps, got an object',
  ],
  [
    'a migration whose version is not a safe integer',
    { migrations: [{ version: 2 ** 53, migrate: (data: object) => data }] },
    'migrations must be { version, migrate } steps with ascending positive integer versions',
  ],
  [
    'createId that is not a function',
    { createId: 'uuid' },
    'createId must be a function, got a string ("uuid")',
  ],
  [
    'handOverLocks that is not a boolean',
    { handOverLocks: 'yes' },
    'handOverLocks must be true or false, got a string ("yes")',
  ],
  [
    'a name that is not a string',
    { name: 5 },
    'name must be a non-empty string of well-formed UTF-16 without "/" or "#", got a number (5)',
  ],
];

describe('DataDriver options', () => {
  it.each(rows)('%s', (_name, overrides, message) => {
    expect(
      () => new DataDriver({ name: 'PlayerData', defaults: {}, store, ...overrides } as never),
    ).toThrow(
      expect.objectContaining({
        code: 'Data.InvalidConfig',
        message: `Data.InvalidConfig: ${message}`,
      }),
    );
  });

  it('takes every option it knows, and undefined for any optional one', () => {
    const driver = new DataDriver({
      name: 'Known',
      defaults: {},
      store,
      messenger: undefined,
      presence: undefined,
      kickMessages: { locked: undefined, rejoined: 'Signed in elsewhere.' },
      timings: {},
      handoffLimits: {},
    });
    expect(driver.name).toBe('Known');
  });
});
