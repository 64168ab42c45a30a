import { describe, expect, it } from 'vitest';
import { parseHandoffMessage } from '../src/handoff/wire.js';
import { DataDriver, type DataDriverError, ErrorCode, Handoff } from '../src/index.js';
import { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } from '../src/testing.js';
import { testBed } from './helpers.js';

const LONE = 'player\uD800';
const REPLACED = 'player\uFFFD';

async function refusal(call: () => unknown): Promise<DataDriverError> {
  try {
    await call();
  } catch (error) {
    return error as DataDriverError;
  }
  throw new Error('expected a refusal');
}

describe('profile keys that are not well-formed UTF-16', () => {
  type Call = (driver: DataDriver<{ coins: number }>) => unknown;
  it.each<[string, Call]>([
    ['load', (d: DataDriver<{ coins: number }>) => d.load(LONE)],
    ['versions', (d: DataDriver<{ coins: number }>) => d.versions(LONE)],
    ['restoreAt', (d: DataDriver<{ coins: number }>) => d.restoreAt(LONE, 0)],
    ['erase', (d: DataDriver<{ coins: number }>) => d.erase(LONE)],
    ['profile', (d: DataDriver<{ coins: number }>) => d.profile(LONE)],
  ])('%s refuses one with Data.InvalidArgument and touches nothing', async (_name, call) => {
    const bed = testBed();
    const store = new MemoryStore({ versions: { keep: 3 }, clock: bed.clock });
    store.put(`PlayerData/${REPLACED}`, { data: { coins: 99 }, meta: { version: 1 } });
    const driver = bed.driver('A', { store });
    const error = await refusal(() =>
      bed.clock.run(Promise.resolve().then((): unknown => call(driver))),
    );
    expect(error.code).toBe(ErrorCode.InvalidArgument);
    expect(error.message).toContain('not well-formed UTF-16');
    expect(store.keys()).toEqual([`PlayerData/${REPLACED}`]);
    expect(store.peek(`PlayerData/${REPLACED}`)).toEqual({
      data: { coins: 99 },
      meta: { version: 1 },
    });
  });

  it('attach kicks a player whose keyOf gives one, with the load-failed message', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const host = new MemoryHost('A');
    driver.attach(host, { keyOf: () => LONE });
    host.join('u1');
    await bed.clock.advance(0);
    expect(host.kicks).toEqual([
      { player: 'u1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    const failed = bed.events.find((event) => event.type === 'load.failed');
    expect(failed).toMatchObject({ error: { code: ErrorCode.InvalidArgument } });
    expect(bed.store.keys()).toEqual([]);
  });

  it('attach kicks a player whose keyOf throws, and logs it', async () => {
    const bed = testBed();
    const driver = bed.driver('A');
    const host = new MemoryHost('A');
    driver.attach(host, {
      keyOf: () => {
        throw new Error('no key');
      },
    });
    host.join('u1');
    await bed.clock.advance(0);
    expect(host.kicks).toEqual([
      { player: 'u1', message: 'Your data could not be loaded. Please rejoin.' },
    ]);
    expect(bed.log.lines).toContainEqual({
      level: 'error',
      message: 'keyOf threw for player u1: Error: no key',
    });
  });

  it('a handoff message naming one is ignored', () => {
    expect(parseHandoffMessage({ T: 'R', D: 'PlayerData', K: LONE })).toBeUndefined();
    expect(parseHandoffMessage({ T: 'Q', D: 'PlayerData', K: 'p', R: 'B\uDC00' })).toBeUndefined();
    expect(parseHandoffMessage({ T: 'Q', D: 'Player\uD800', K: 'p', R: 'B' })).toBeUndefined();
    expect(
      parseHandoffMessage({ T: 'Q', D: 'PlayerData', K: 'p', R: 'B', L: '\uD800' }),
    ).toBeUndefined();
  });
});

describe('driver names and jobIds that are not well-formed UTF-16', () => {
  const ports = { defaults: { coins: 0 }, store: new MemoryStore() };

  it('a driver name is refused at construction with Data.InvalidConfig', () => {
    expect(() => new DataDriver({ ...ports, name: 'Player\uD800' })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it('a jobId option is refused at construction with Data.InvalidConfig', () => {
    expect(() => new DataDriver({ ...ports, name: 'PlayerData', jobId: 'srv\uDBFF' })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it("a host's jobId is refused at attach with Data.InvalidConfig", () => {
    const driver = new DataDriver({ ...ports, name: 'PlayerData' });
    expect(() => driver.attach(new MemoryHost('srv\uD800'))).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });

  it("a handoff's jobId is refused at construction with Data.InvalidConfig", () => {
    const options = { messenger: new MemoryMessenger(), presence: new MemoryPresence() };
    expect(() => new Handoff({ ...options, jobId: '\uDC00srv' })).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
  });
});
