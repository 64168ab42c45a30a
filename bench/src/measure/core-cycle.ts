/**
 * DataDriver's own CPU per load + save + release, with no I/O: the same cycle as the
 * throughput measurement (200 players in flight, one change per cycle), on core's in-memory
 * store, messenger and presence. What is left is core's code and the memory store's JSON
 * copy of each record, so a change to core shows here without the socket writes and the
 * Redis server that dominate (and blur) the throughput windows. Windows of one second; the
 * best is the figure least disturbed by other work on the machine.
 */
import { DataDriver, Handoff } from '@datadriver/core';
import { MemoryHost, MemoryMessenger, MemoryPresence, MemoryStore } from '@datadriver/core/testing';
import { quietLogger } from '../quiet-logger.js';
import type { Coins } from './in-process-server.js';
import { dataDriverCycle, runPlayers } from './throughput.js';

export interface CoreCycle {
  /** CPU per cycle (µs) of each window, in the order they ran. */
  readonly cpuUsPerCycle: readonly number[];
  readonly cyclesPerSecond: readonly number[];
  readonly players: number;
  readonly windowSeconds: number;
}

export async function measureCoreCycle(
  players: number,
  windows: number,
  windowSeconds: number,
): Promise<CoreCycle> {
  const jobId = `bench-core-${process.pid}`;
  const [messenger, presence] = [new MemoryMessenger(), new MemoryPresence()];
  const handoff = new Handoff({ jobId, messenger, presence, logger: quietLogger });
  const driver = new DataDriver<Coins>({
    name: 'PlayerData',
    defaults: { coins: 0 },
    store: new MemoryStore(),
    messenger,
    presence,
    logger: quietLogger,
    jobId,
    handoff,
  });
  driver.attach(new MemoryHost(jobId));
  const cpuUsPerCycle: number[] = [];
  const cyclesPerSecond: number[] = [];
  try {
    const cycle = dataDriverCycle(driver);
    await runPlayers(cycle, 'core-warm', players, windowSeconds); // JIT, not recorded
    for (let index = 0; index < windows; index++) {
      const cpuBefore = process.cpuUsage();
      const done = await runPlayers(cycle, `core-w${index}`, players, windowSeconds);
      const cpu = process.cpuUsage(cpuBefore);
      cpuUsPerCycle.push((cpu.user + cpu.system) / done.cycles);
      cyclesPerSecond.push(done.cycles / done.seconds);
    }
  } finally {
    await driver.close();
    await handoff.destroy();
  }
  return { cpuUsPerCycle, cyclesPerSecond, players, windowSeconds };
}
