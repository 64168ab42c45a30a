/**
 * Keys, driver names, server ids and lock tokens are capped so that a signed release request
 * holding all of them always fits a 1 kB message; a request that still cannot be sent warns.
 */
import { describe, expect, it } from 'vitest';
import { Signer } from '../src/handoff/signing.js';
import { DataDriver, ErrorCode, Handoff } from '../src/index.js';
import { MAX_MESSAGE_BYTES } from '../src/ports.js';
import { utf8Bytes } from '../src/rules/index.js';
import { MAX_NAME_BYTES, MAX_TOKEN_BYTES, wireBytes } from '../src/rules/keys.js';
import { requestMessage } from '../src/rules.js';
import {
  MemoryHost,
  MemoryMessenger,
  MemoryPresence,
  MemoryStore,
  VirtualClock,
} from '../src/testing.js';
import { handoffServers, testBed } from './helpers.js';

/** The longest text of `fill` characters within `max` wire bytes. */
function longest(fill: string, max: number): string {
  let text = '';
  while (wireBytes(text + fill) <= max) text += fill;
  return text;
}

const over = (what: string) => expect.stringContaining(`${what} is `);

describe('the caps on keys, names, server ids and tokens', () => {
  it.each(['a', 'é', '😀', '\u0001', '"', '\n', '\\'])(
    'a signed request of the longest key, name, jobId and token of %j fits 1 kB',
    (fill) => {
      const name = longest(fill, MAX_NAME_BYTES);
      const message = requestMessage(name, name, name, longest(fill, MAX_TOKEN_BYTES));
      const signed = new Signer({ key: 'a fleet secret of 32 characters!' }).sign(message);
      expect(utf8Bytes(JSON.stringify(signed))).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    },
  );

  it('a key of 256 bytes loads; one of 257 is refused at once with Data.InvalidArgument, writing nothing', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const fits = 'é'.repeat(128);
    await expect(bed.clock.run(driver.load(fits))).resolves.toMatchObject({ key: fits });
    const keys = bed.store.keys();
    const error = await bed.clock.run(driver.load(`${fits}x`).catch((e: unknown) => e));
    expect(error).toMatchObject({
      code: ErrorCode.InvalidArgument,
      message: expect.stringContaining(
        'a profile key is 257 bytes as JSON (UTF-8), over the 256 a handoff message leaves it (MAX_NAME_BYTES)',
      ),
    });
    expect(bed.store.keys()).toEqual(keys);
    expect(bed.clock.now() - Date.UTC(2026, 0, 1)).toBe(0);
  });

  it('counts a key as it goes on the wire: 43 control characters are 258 bytes', async () => {
    const bed = testBed();
    const error = await bed.clock.run(
      bed
        .driver('A')
        .load('\u0001'.repeat(43))
        .catch((e: unknown) => e),
    );
    expect(error).toMatchObject({
      code: ErrorCode.InvalidArgument,
      message: over('a profile key'),
    });
  });

  it('refuses a driver name, a jobId, a host jobId and a handoff jobId over 256 bytes', () => {
    const clock = new VirtualClock();
    const store = new MemoryStore();
    const long = 'x'.repeat(257);
    const make = (extra: object) =>
      new DataDriver({ name: 'PlayerData', defaults: {}, store, scheduler: clock, ...extra });
    const invalid = (what: string) =>
      expect.objectContaining({ code: ErrorCode.InvalidConfig, message: over(what) });
    expect(() => make({ name: long })).toThrow(invalid('name'));
    expect(() => make({ jobId: long })).toThrow(invalid('jobId'));
    expect(() => make({}).attach(new MemoryHost(long))).toThrow(invalid("the host's jobId"));
    const ports = { messenger: new MemoryMessenger(), presence: new MemoryPresence(clock) };
    expect(() => new Handoff({ jobId: long, ...ports })).toThrow(invalid("a handoff's jobId"));
    expect(() => make({ name: 'x'.repeat(256), jobId: 'y'.repeat(256) })).not.toThrow();
  });

  it('refuses a lock token from createId over 128 bytes, writing nothing', async () => {
    const bed = testBed();
    const driver = bed.driver('A', { createId: () => 't'.repeat(MAX_TOKEN_BYTES + 1) });
    const error = await bed.clock.run(driver.load('p1').catch((e: unknown) => e));
    expect(error).toMatchObject({
      code: ErrorCode.InvalidConfig,
      message: over('an id from createId'),
    });
    expect(bed.store.keys()).toEqual([]);
  });
});

describe('a release request that cannot be sent', () => {
  it('warns once while requests keep failing, and again after one went out', async () => {
    const bed = testBed();
    const { clock, log } = bed;
    const server = handoffServers(bed);
    const a = server('A', { lockWaitSeconds: 15 });
    const b = server('B', { lockWaitSeconds: 15 });
    await clock.run(a.driver.load('p1'));
    await clock.run(a.driver.load('p2'));
    const down = b.messenger.faults.inject({
      kind: 'fail',
      operation: 'publish',
      times: Number.POSITIVE_INFINITY,
    });
    const requestWarnings = () => log.warnings().filter((line) => line.includes('release request'));
    const first = b.driver.load('p1').catch((e: unknown) => e);
    const second = b.driver.load('p2').catch((e: unknown) => e);
    await clock.advance(10_000); // requests at 0, 4 and 8 s for each load, all failing
    expect(requestWarnings()).toEqual([
      expect.stringContaining('a release request for p1 to server A failed'),
    ]);
    down.remove();
    await clock.advance(4_000); // the 12 s requests go out: A releases both to B
    expect(await first).toMatchObject({ key: 'p1' });
    expect(await second).toMatchObject({ key: 'p2' });
    await clock.run(a.driver.load('p3'));
    b.messenger.faults.inject({
      kind: 'fail',
      operation: 'publish',
      times: Number.POSITIVE_INFINITY,
    });
    const third = b.driver.load('p3').catch((e: unknown) => e);
    await clock.advance(1_000);
    expect(requestWarnings()).toEqual([
      expect.stringContaining('a release request for p1 to server A failed'),
      expect.stringContaining('a release request for p3 to server A failed'),
    ]);
    await clock.run(third);
  });

  it('a holder whose replies fail warns once, and again after one went out', async () => {
    const bed = testBed();
    const server = handoffServers(bed);
    const a = server('A');
    const b = server('B');
    await bed.clock.advance(0);
    const fail = () =>
      a.messenger.faults.inject({
        kind: 'fail',
        operation: 'publish',
        times: Number.POSITIVE_INFINITY,
      });
    const ask = async (key: string) => {
      await bed.clock.run(b.handoff.request('PlayerData', key, 'A'));
      await bed.clock.advance(1_000); // A's reply and its one retry 0.5 s later
    };
    const replyWarnings = () =>
      bed.log.warnings().filter((line) => line.startsWith('handoff reply'));
    let down = fail();
    for (const key of ['k1', 'k2', 'k3']) await ask(key);
    expect(replyWarnings()).toEqual([
      expect.stringContaining('handoff reply for k1 to B failed; more failures are not logged'),
    ]);
    down.remove();
    await ask('k4');
    down = fail();
    await ask('k5');
    expect(replyWarnings()).toHaveLength(2);
    expect(replyWarnings()[1]).toContain('handoff reply for k5 to B failed');
    down.remove();
  });
});
