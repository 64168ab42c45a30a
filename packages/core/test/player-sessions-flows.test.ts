/**
 * What an attached driver does with its host's players (`holder/player-sessions.ts`,
 * `holder/attach.ts`) when the game's own code fails or is absent: each kick says its cause
 * (`profile.kicked`), each failure of a game callback is logged as an error, and a session
 * whose player left is released with the reason that ended it. Exact, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { DataDriverError, ErrorCode, type ReleaseReason } from '../src/index.js';
import { MemoryHost } from '../src/testing.js';
import { testBed } from './helpers.js';
import { messagesBed } from './messages/bed.js';

const LOAD_FAILED = 'Your data could not be loaded. Please rejoin.';

function attached(
  options: Parameters<ReturnType<ReturnType<typeof testBed>['driver']>['attach']>[1] = {},
) {
  const bed = testBed();
  const ended: ReleaseReason[] = [];
  const { driver, store } = bed.server('A', {
    beforeRelease: (_profile, reason) => void ended.push(reason),
  });
  const host = new MemoryHost('A');
  const detach = driver.attach(host, options);
  const kicked = () =>
    bed.events.flatMap((e) => (e.type === 'profile.kicked' ? [`${e.key} ${e.cause}`] : []));
  return { bed, driver, store, host, detach, ended, kicked };
}

describe('an attached driver, when the game fails', () => {
  it('keyOf throws: the player is kicked as load-failed and it is logged', async () => {
    const { bed, host, kicked } = attached({
      keyOf: () => {
        throw new Error('no account');
      },
    });
    host.join('p1');
    await bed.clock.advance(0);
    expect(host.kicks).toEqual([{ player: 'p1', message: LOAD_FAILED }]);
    expect(kicked()).toEqual(['p1 load-failed']);
    expect(
      bed.log.lines.filter((line) => line.level === 'error').map((line) => line.message),
    ).toEqual(['keyOf threw for player p1: Error: no account']);
  });

  it('the load fails (not locked): kicked as load-failed', async () => {
    const { bed, host, store, kicked } = attached();
    store.faults.inject({
      kind: 'fail',
      operation: 'update',
      key: 'PlayerData/p1',
      times: Number.POSITIVE_INFINITY,
    });
    host.join('p1');
    await bed.clock.advance(60_000);
    expect(host.kicks).toEqual([{ player: 'p1', message: LOAD_FAILED }]);
    expect(kicked()).toEqual(['p1 load-failed']);
  });

  it('onLoad throws: kicked as load-failed, released as load-failed, logged', async () => {
    const { bed, host, ended, kicked } = attached({
      onLoad: () => {
        throw new Error('no inventory');
      },
    });
    host.join('p1');
    await bed.clock.advance(0);
    expect(host.kicks).toEqual([{ player: 'p1', message: LOAD_FAILED }]);
    expect(kicked()).toEqual(['p1 load-failed']);
    expect(ended).toEqual(['load-failed']);
  });

  it('onLeave throws: logged, and the release goes on as left', async () => {
    const { bed, host, ended, driver } = attached({
      onLeave: () => {
        throw new Error('no leaderboard');
      },
    });
    host.join('p1');
    await bed.clock.advance(0);
    host.leave('p1');
    await bed.clock.advance(0);
    expect(
      bed.log.lines.filter((line) => line.level === 'error').map((line) => line.message),
    ).toEqual(['onLeave threw for p1: Error: no leaderboard']);
    expect(ended).toEqual(['left']);
    expect(driver.profile('p1')).toBeUndefined();
  });

  it('no onLeave: a leave logs nothing and releases as left', async () => {
    const { bed, host, ended } = attached();
    host.join('p1');
    await bed.clock.advance(0);
    host.leave('p1');
    await bed.clock.advance(0);
    expect(bed.log.lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(ended).toEqual(['left']);
  });
});

describe('a player who leaves while their load lands', () => {
  it('gets no onLoad, and the session released as left', async () => {
    const m = messagesBed();
    const ended: ReleaseReason[] = [];
    const a = m.server('A', { beforeRelease: (_profile, reason) => void ended.push(reason) });
    const host = new MemoryHost('A');
    const loaded: string[] = [];
    a.driver.attach(host, { onLoad: (profile) => void loaded.push(profile.key) });
    // The load's pass reads the inbox after its take: held until the player has left.
    const read = a.store.faults.inject({
      kind: 'stall',
      operation: 'get',
      key: 'PlayerData#inbox/p1',
    });
    host.join('p1');
    await m.bed.clock.advance(100);
    host.leave('p1');
    read.release();
    await m.bed.clock.advance(0);
    expect(loaded).toEqual([]);
    expect(ended).toEqual(['left']);
    expect(a.driver.profile('p1')).toBeUndefined();
  });
});

describe('attach', () => {
  it('refuses a second attach with Data.InvalidConfig naming the driver', () => {
    const { driver } = attached();
    let error: unknown;
    try {
      driver.attach(new MemoryHost('A'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DataDriverError);
    expect((error as DataDriverError).code).toBe(ErrorCode.InvalidConfig);
    expect((error as DataDriverError).message).toBe(
      'Data.InvalidConfig: PlayerData is already attached',
    );
  });

  it('loads the players the host already has, and after detach loads no new ones', async () => {
    const bed = testBed();
    const { driver } = bed.server('A');
    const host = new MemoryHost('A');
    host.join('early');
    const detach = driver.attach(host);
    await bed.clock.advance(0);
    expect(driver.profile('early')?.active).toBe(true);
    detach();
    host.join('late');
    await bed.clock.advance(0);
    expect(driver.profile('late')).toBeUndefined();
  });

  it('works with a host that cannot list its players', async () => {
    const bed = testBed();
    const { driver } = bed.server('A');
    const memory = new MemoryHost('A');
    const host = {
      jobId: memory.jobId,
      onPlayerAdded: memory.onPlayerAdded.bind(memory),
      onPlayerRemoving: memory.onPlayerRemoving.bind(memory),
      kick: memory.kick.bind(memory),
    };
    driver.attach(host);
    memory.join('p1');
    await bed.clock.advance(0);
    expect(driver.profile('p1')?.active).toBe(true);
  });
});
