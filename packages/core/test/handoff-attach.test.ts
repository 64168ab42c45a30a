/**
 * Attaching to a server's shared handoff: a refused attach changes nothing, the handoff's
 * events reach every attached driver, a stalled presence holds at most one beat, and
 * `handoff: true` is the default rule.
 */
import { describe, expect, it } from 'vitest';
import { DataDriver, type DataDriverEvent, ErrorCode, Handoff } from '../src/index.js';
import { FaultyPresence, MemoryHost, VirtualClock } from '../src/testing.js';
import { CountedPresence, countedBackend } from './counted-ports.js';
import { recordingLogger, stored } from './helpers.js';

const KEY = 'a fleet secret of 32 characters!';

/** Each test its own server: a shared handoff is one per server id in the process. */
let hosts = 0;
function hostId(): string {
  hosts += 1;
  return `attach-${hosts}`;
}

function server() {
  const clock = new VirtualClock();
  const backend = countedBackend(clock);
  const { presenceFaults, ...ports } = backend.connect();
  const make = (name: string, extra: Partial<ConstructorParameters<typeof DataDriver>[0]> = {}) => {
    const log = recordingLogger();
    const driver = new DataDriver({
      name,
      defaults: {},
      ...ports,
      scheduler: clock,
      logger: log.logger,
      ...extra,
    });
    const events: DataDriverEvent[] = [];
    driver.on((event) => events.push(event));
    return { driver, log, events };
  };
  return { clock, backend, ports, presenceFaults, make };
}

describe('a refused attach', () => {
  it('leaves no host slot set: once the cause is gone, the same driver attaches', async () => {
    const { clock, make } = server();
    const host = new MemoryHost(hostId());
    const stats = make('Stats');
    stats.driver.attach(host);
    const players = make('PlayerData', { handoffSigning: { key: KEY } });
    const before = players.driver.jobId;
    expect(() => players.driver.attach(host)).toThrow(
      expect.objectContaining({ code: ErrorCode.InvalidConfig }),
    );
    expect(players.driver.jobId).toBe(before);
    expect(players.driver.handoff).toBeUndefined();
    // The unsigned driver closes: the server's handoff goes with it, and the signed one attaches.
    await clock.run(stats.driver.close());
    players.driver.attach(host);
    expect(players.driver.jobId).toBe(host.jobId);
    expect(players.driver.handoff?.jobId).toBe(host.jobId);
    await clock.run(players.driver.close());
  });
});

describe("the shared handoff's events", () => {
  it("reach every attached driver's listeners and logger, and a logger they share once", async () => {
    const { clock, make, ports, presenceFaults } = server();
    const host = new MemoryHost(hostId());
    const players = make('PlayerData');
    const guilds = make('Guilds');
    const shared = recordingLogger();
    const stats = make('Stats', { logger: shared.logger });
    const inventory = make('Inventory', { logger: shared.logger });
    for (const each of [players, guilds, stats, inventory]) each.driver.attach(host);
    expect(ports.presence.sets).toBe(1);
    await clock.advance(0);
    // The next beat fails, and so does its retry.
    presenceFaults.inject({ kind: 'fail', operation: 'set', times: 2 });
    await clock.advance(3_000 + 250);
    for (const each of [players, guilds, stats, inventory]) {
      const failed = each.events.filter((e) => e.type === 'presence.beat-failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ jobId: host.jobId, first: true });
    }
    const warning = `presence beat of server ${host.jobId} failed: Data.BackendFailed: injected failure of set ${host.jobId}`;
    expect(players.log.warnings()).toEqual([warning]);
    expect(guilds.log.warnings()).toEqual([warning]);
    expect(shared.warnings()).toEqual([warning]);
    await clock.run(Promise.all([players, guilds, stats, inventory].map((d) => d.driver.close())));
  });
});

describe('a presence that hangs', () => {
  it('holds one beat in flight, not one per beat, and warns once, in order', async () => {
    const clock = new VirtualClock();
    const backend = countedBackend(clock);
    const faulty = new FaultyPresence(backend.beats, { scheduler: clock });
    const presence = new CountedPresence(faulty);
    const log = recordingLogger();
    const handoff = new Handoff({
      jobId: 'H',
      messenger: backend.bus,
      presence,
      scheduler: clock,
      logger: log.logger,
    });
    const events: string[] = [];
    handoff.on((event) => {
      if (event.type === 'presence.beat') events.push(`${event.time - started} beat`);
      if (event.type === 'presence.beat-failed') {
        events.push(`${event.time - started} failed${event.first ? ' (warns)' : ''}`);
      }
    });
    const started = clock.now();
    handoff.start(clock);
    await clock.advance(0);
    const hang = faulty.faults.inject({ kind: 'stall', operation: 'set' });
    await clock.advance(30_000);
    expect(presence.sets).toBe(2);
    expect(presence.inFlight).toBe(1);
    expect(log.warnings()).toHaveLength(1);
    expect(log.warnings()[0]).toContain('the beat sent 3000 ms ago has not settled');
    hang.release();
    await clock.advance(0);
    await clock.advance(3_000);
    expect(presence.inFlight).toBe(0);
    expect(events).toEqual([
      '0 beat',
      '6000 failed (warns)',
      ...[9, 12, 15, 18, 21, 24, 27, 30].map((s) => `${s * 1000} failed`),
      '30000 beat',
      '33000 beat',
    ]);
    await handoff.destroy();
  });
});

describe('handoff: true', () => {
  it('is the default rule: on at attach for a live server, and its locks carry presence', async () => {
    const { clock, backend, make } = server();
    const players = make('PlayerData', { handoff: true });
    const host = new MemoryHost(hostId());
    players.driver.attach(host);
    expect(players.driver.handoff?.jobId).toBe(host.jobId);
    await clock.run(players.driver.load('p1'));
    expect(stored(backend.store, 'p1')?.meta.lock).toMatchObject({
      jobId: host.jobId,
      presence: true,
    });
    await clock.run(players.driver.close());
  });
});
