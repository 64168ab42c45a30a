/**
 * What an idle server costs its backends: store, presence and bus operations per minute with 1
 * and with 10 drivers attached (no players), counted at the ports, on real Redis and real
 * timers at the seed's constants. Every driver of a server shares its one handoff, so the
 * seed's cost ("one subscription and one write every 3 s") should not grow with drivers.
 */
import type { BenchConfig } from '../config.js';
import { countingPorts, OperationCounts, type PortName } from './counting-ports.js';
import { redisPorts, startServer } from './in-process-server.js';

export interface IdleCost {
  readonly drivers: number;
  /** Operations per minute by port. */
  readonly perMinute: Readonly<Record<PortName, number>>;
  /** Raw counts by operation, over `seconds`, after the start-up (subscribe, first beat). */
  readonly counts: Readonly<Record<string, number>>;
  readonly startup: Readonly<Record<string, number>>;
  readonly seconds: number;
}

const PORTS: readonly PortName[] = ['store', 'presence', 'bus'];

export async function measureIdleCost(
  redisUrl: string,
  drivers: number,
  config: BenchConfig,
): Promise<IdleCost> {
  const ports = redisPorts(redisUrl);
  const counts = new OperationCounts();
  const server = startServer({
    jobId: `bench-idle-${drivers}-${process.pid}`,
    ports: countingPorts(ports, counts),
    drivers,
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 200)); // the subscribe and first beat land
    const startup = Object.fromEntries(counts.byOperation);
    counts.reset();
    await new Promise((resolve) => setTimeout(resolve, config.idleSeconds * 1000));
    const perMinute = Object.fromEntries(
      PORTS.map((port) => [port, (counts.total(port) * 60) / config.idleSeconds]),
    ) as Record<PortName, number>;
    return {
      drivers,
      perMinute,
      counts: Object.fromEntries(counts.byOperation),
      startup,
      seconds: config.idleSeconds,
    };
  } finally {
    await server.close();
    await ports.close();
  }
}
