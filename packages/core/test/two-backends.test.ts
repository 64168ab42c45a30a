/**
 * Drivers of one server on two backends: server S keeps `Players` on backend X and `Guilds`
 * on backend Y (each its own store, messenger and presence). S's locks on Y carry the presence
 * flag, so S must beat presence and listen on Y as well as on X: one presence per backend.
 */
import { describe, expect, it } from 'vitest';
import {
  DataDriver,
  type DataDriverEvent,
  type DataDriverOptions,
  ErrorCode,
  type Handoff,
} from '../src/index.js';
import { FaultyMessenger, MemoryHost, VirtualClock } from '../src/testing.js';
import { countedBackend } from './counted-ports.js';
import { recordingLogger } from './helpers.js';

type Ports = Pick<DataDriverOptions<object>, 'store' | 'messenger' | 'presence'>;

function world() {
  const clock = new VirtualClock();
  const x = countedBackend(clock);
  const y = countedBackend(clock);
  const log = recordingLogger();
  const driver = (name: string, { store, messenger, presence }: Ports) => {
    const made = new DataDriver({
      name,
      defaults: { members: 0 },
      store,
      messenger,
      presence,
      scheduler: clock,
      logger: log.logger,
    });
    const events: DataDriverEvent[] = [];
    made.on((event) => events.push(event));
    return { driver: made, events };
  };
  return { clock, x, y, log, driver };
}

describe('one server with drivers on two backends', () => {
  it("never has its live lock on the second backend taken: S beats and listens there, so T finds S alive and waits (Data.Locked at 15 s), and S's save succeeds", async () => {
    const { clock, x, y, log, driver } = world();
    const sY = y.connect();
    // S hears nothing on Y (its deliveries there are dropped), so only its beat protects g1.
    const sYMessenger = new FaultyMessenger(sY.messenger, { scheduler: clock });
    sYMessenger.faults.inject({
      kind: 'drop',
      operation: 'deliver',
      times: Number.POSITIVE_INFINITY,
    });
    const sPlayers = driver('Players', x.connect());
    const sGuilds = driver('Guilds', { ...sY, messenger: sYMessenger });
    const s = new MemoryHost('S');
    sPlayers.driver.attach(s);
    sGuilds.driver.attach(s);
    const tGuilds = driver('Guilds', y.connect());
    tGuilds.driver.attach(new MemoryHost('T'));
    const g1 = await clock.run(sGuilds.driver.load('g1'));

    const started = clock.now();
    const joined = await clock.run(tGuilds.driver.load('g1').catch((error: unknown) => error));
    expect(joined).toMatchObject({ code: ErrorCode.Locked });
    expect(clock.now() - started).toBe(15_000);
    const answers = tGuilds.events.flatMap((e) => (e.type === 'presence.read' ? [e.answer] : []));
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((answer) => answer === 'alive')).toBe(true);

    g1.data.members = 5;
    await clock.run(g1.save());
    expect(g1.active).toBe(true);
    expect(sGuilds.events.some((e) => e.type === 'lock.lost')).toBe(false);
    expect(log.warnings().filter((w) => w.startsWith('took the lock'))).toEqual([]);
    await clock.run(Promise.all([sPlayers, sGuilds, tGuilds].map((d) => d.driver.close())));
  });

  it("hands a lock on the second backend over through that backend's bus: T's request reaches S on Y", async () => {
    const { clock, x, y, driver } = world();
    const sPlayers = driver('Players', x.connect());
    const sGuilds = driver('Guilds', y.connect());
    const s = new MemoryHost('S');
    sPlayers.driver.attach(s);
    sGuilds.driver.attach(s);
    const tGuilds = driver('Guilds', y.connect());
    tGuilds.driver.attach(new MemoryHost('T'));
    const g1 = await clock.run(sGuilds.driver.load('g1'));

    const started = clock.now();
    await clock.run(tGuilds.driver.load('g1'));
    // S (no player holds g1) releases on the request and replies at once.
    expect(clock.now() - started).toBe(0);
    expect(g1.active).toBe(false);
    const received = sGuilds.events.filter((e) => e.type === 'handoff.request.received');
    expect(received).toHaveLength(1);
    expect(tGuilds.events.filter((e) => e.type === 'lock.taken')).toEqual([]);
    await clock.run(Promise.all([sPlayers, sGuilds, tGuilds].map((d) => d.driver.close())));
  });

  it('beats once per beat on each backend and subscribes once on each: a third driver on X adds nothing', async () => {
    const { clock, x, y, driver } = world();
    const sX = x.connect();
    const sY = y.connect();
    const s = new MemoryHost('S');
    const players = driver('Players', sX);
    const stats = driver('Stats', sX);
    const guilds = driver('Guilds', sY);
    for (const each of [players, stats, guilds]) each.driver.attach(s);
    const handoff = players.driver.handoff as Handoff;
    expect(guilds.driver.handoff).toBe(handoff);
    expect(handoff.backendCount).toEqual({ presences: 2, messengers: 2 });
    expect([sX.messenger.subscribes, sY.messenger.subscribes]).toEqual([1, 1]);
    await clock.advance(30_000);
    // One beat at attach, then one every 3 s, on each presence.
    expect([sX.presence.sets, sY.presence.sets]).toEqual([11, 11]);
    expect(y.beats.peek('S')).toBe('1');

    // Guilds leaves: S stops beating and listening on Y, and keeps X.
    await clock.run(guilds.driver.close());
    expect(handoff.backendCount).toEqual({ presences: 1, messengers: 1 });
    expect(sY.messenger.active).toBe(0);
    await clock.advance(30_000);
    expect([sX.presence.sets, sY.presence.sets]).toEqual([21, 11]);
    await clock.run(Promise.all([players.driver.close(), stats.driver.close()]));
  });
});
