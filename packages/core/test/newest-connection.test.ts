/**
 * The same player connecting twice to one server (a second tab, a reconnect before the old
 * socket timed out): the newest connection wins. The older one is kicked with its own message,
 * its leave cleanups and leave save run, and the new join loads what it saved, as the seed's
 * same-server rejoin does (it waits for that leave save: about one save).
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, type DataDriverEvent, DEFAULT_KICK_MESSAGES } from '../src/index.js';
import { FaultyStore, MemoryHost, MemoryStore, VirtualClock } from '../src/testing.js';
import { recordingLogger, stored } from './helpers.js';

function server(latencyMs: number) {
  const clock = new VirtualClock();
  const store = new MemoryStore();
  const driver = new DataDriver<{ coins: number }>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: new FaultyStore(store, { scheduler: clock, latencyMs }),
    scheduler: clock,
    jobId: 'A',
    logger: recordingLogger().logger,
  });
  const events: DataDriverEvent[] = [];
  driver.on((event) => void events.push(event));
  return { clock, store, driver, events, host: new MemoryHost('A') };
}

describe('the same player connecting twice to one server', () => {
  it('kicks the older connection with its message; the newer one loads its leave save after one save', async () => {
    const { clock, store, driver, events, host } = server(100);
    const cleanups: string[] = [];
    const loadedFor: unknown[] = [];
    driver.attach(host, {
      onLoad: (_profile, player) => loadedFor.push(player),
      onLeave: (profile) => {
        cleanups.push(profile.key);
        profile.data.coins += 1; // a leave cleanup: its change is in the leave save
      },
    });
    const older = host.join('p1');
    await clock.advance(1_000);
    driver.profile('p1')!.data.coins = 7;
    const joined = clock.now();
    const newer = host.join('p1');
    await clock.advance(1_000);
    expect(older.kickedWith).toBe('You joined again from another connection.');
    expect(host.kicks).toEqual([{ player: 'p1', message: DEFAULT_KICK_MESSAGES.rejoined }]);
    expect(newer.kickedWith).toBeUndefined();
    expect(host.players()).toEqual([newer]);
    expect(cleanups).toEqual(['p1']);
    expect(loadedFor).toEqual([older, newer]);
    const loaded = events.filter((e) => e.type === 'load.loaded');
    // The leave save (100 ms), then the load (100 ms): no 15 s wait.
    expect(loaded.at(-1)).toMatchObject({ key: 'p1', reason: 'unlocked', waitedMs: 200 });
    expect(loaded.at(-1)?.time).toBe(joined + 200);
    expect(driver.profile('p1')?.data).toEqual({ coins: 8 });
    expect(stored(store, 'p1')?.meta.lock).toMatchObject({ jobId: 'A' });
  });

  it('takes its kick message from kickMessages.rejoined', async () => {
    const { clock, host, store } = server(0);
    const driver = new DataDriver({
      name: 'Other',
      defaults: {},
      store,
      scheduler: clock,
      jobId: 'B',
      kickMessages: { rejoined: 'Signed in elsewhere.' },
    });
    driver.attach(host);
    const older = host.join('p1');
    await clock.advance(0);
    host.join('p1');
    await clock.advance(0);
    expect(older.kickedWith).toBe('Signed in elsewhere.');
  });
});
