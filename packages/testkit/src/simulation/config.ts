/**
 * What one seed builds: how many servers and players, which servers run an older build
 * (handoff off), how far each server's clock is off, the lock times, the latencies and how
 * long the workload runs. Drawn from the seed's own stream, so a run is a pure function of
 * its seed.
 */
import { Random } from './prng.js';

export interface ServerPlan {
  /** "A", "B", ...: the name the trace uses. */
  readonly label: string;
  /** False for a server of an older build, or with `handoff: false` (mixed versions). */
  readonly handoff: boolean;
  /**
   * This server's clock offset from the backend's clock (ms). Offsets lie within
   * ±lockSkewSeconds/2, so any two servers differ by at most lockSkewSeconds: beyond that the
   * lock rules make no promise, and the simulator stays inside the contract.
   */
  readonly skewMs: number;
  /** Its first subscriptions fail this many times (it polls until a beat resubscribes). */
  readonly subscribeFailures: number;
  /**
   * Its driver hands locks over in the release and asks for them (`handOverLocks`). Drawn from
   * a stream of its own, so a seed that draws none runs as it did before the option.
   */
  readonly handOverLocks: boolean;
}

/**
 * A second driver on a server (a game running two copies of the library, or two data sets):
 * - `older-copy`: the same name over the same backend through its own store object, handoff
 *   off, under the server's jobId: an older build bundled beside the new one, whose locks carry
 *   no presence flag. It loads the same player records as the server's own driver;
 * - `other-name`: another name over the same backend, on the server's handoff when it has one;
 * - `other-backend`: its own store, messenger and presence (another name when it shares the
 *   server's handoff; a handoff can route one driver per name).
 * The last two own records nobody else loads: they must stay apart from the player data.
 */
export type SideKind = 'older-copy' | 'other-name' | 'other-backend';

export interface SideDriverPlan {
  /** "A2": the server's label and the driver's number there. */
  readonly label: string;
  /** The label of the server it runs on. */
  readonly server: string;
  readonly kind: SideKind;
  readonly handoff: boolean;
}

export interface Latency {
  readonly storeMs: number;
  readonly messageMs: number;
  readonly presenceMs: number;
}

export interface SimulationConfig {
  readonly seed: number;
  readonly servers: readonly ServerPlan[];
  /** The servers' second drivers, from their own stream: the rest of a seed draws as before. */
  readonly drivers: readonly SideDriverPlan[];
  readonly players: number;
  /** Workload steps before the final phase. */
  readonly steps: number;
  readonly lockTtlSeconds: number;
  readonly lockSkewSeconds: number;
  readonly autosaveSeconds: number;
  readonly lockWaitSeconds: number;
  /** Unset: a player session's same-server wait is lockWaitSeconds. */
  readonly localHandoffSeconds: number | undefined;
  readonly latency: Latency;
  /** Probability that a step also injects a fault. */
  readonly faultRate: number;
  /** The run plays the message workload (messages.ts): grants, transfers, their faults. */
  readonly messages: boolean;
}

const LABELS = 'ABCDEFGH';
const SKEW_STEP_MS = 125;

export function drawConfig(seed: number): SimulationConfig {
  const random = Random.stream(seed, 'config');
  // Short lock times, so that locks age out and stalls outlast them within a short run.
  const lockTtlSeconds = random.pick([20, 30, 45, 60, 180]);
  const lockSkewSeconds = random.int(2, 12);
  const autosaveSeconds = random.int(
    Math.max(3, Math.ceil(lockTtlSeconds / 8)),
    Math.floor(lockTtlSeconds / 2),
  );
  const mixed = random.chance(0.35);
  const skewed = random.chance(0.5);
  const count = random.int(3, 8);
  const servers: ServerPlan[] = [];
  // In eighths of a second: exact in binary, so the cluster's seconds-to-ms conversion gives
  // the server exactly this offset, and the checks judge lock ages as the drivers do.
  const maxSteps = Math.floor((lockSkewSeconds * 1000) / 2 / SKEW_STEP_MS);
  for (let index = 0; index < count; index += 1) {
    servers.push({
      label: LABELS[index]!,
      handoff: !(mixed && random.chance(0.35)),
      skewMs: skewed ? random.int(-maxSteps, maxSteps) * SKEW_STEP_MS : 0,
      subscribeFailures: random.chance(0.12) ? random.int(1, 3) : 0,
      handOverLocks: false,
    });
  }
  drawHandOvers(seed, servers);
  return {
    seed,
    servers,
    drivers: drawDrivers(seed, servers),
    players: random.int(3, 10),
    steps: random.int(40, 110),
    lockTtlSeconds,
    lockSkewSeconds,
    autosaveSeconds,
    lockWaitSeconds: random.int(5, 15),
    localHandoffSeconds: random.chance(0.5) ? undefined : random.int(1, 10),
    latency: {
      storeMs: random.int(5, 150),
      messageMs: random.int(1, 40),
      presenceMs: random.int(1, 20),
    },
    faultRate: random.pick([0.05, 0.15, 0.3, 0.45]),
    messages: drawMessages(seed),
  };
}

/**
 * Half the runs hand locks over: each server with handoff on then has the option at 0.7, so
 * a fleet mixes servers that hand over and ask with servers that do neither.
 */
function drawHandOvers(seed: number, servers: ServerPlan[]): void {
  const random = Random.stream(seed, 'hand-over');
  if (!random.chance(0.5)) return;
  servers.forEach((server, index) => {
    const handOverLocks = server.handoff && random.chance(0.7);
    servers[index] = { ...server, handOverLocks };
  });
}

/** Half the runs play the message workload, drawn from its own stream. */
function drawMessages(seed: number): boolean {
  return Random.stream(seed, 'messages-config').chance(0.5);
}

const SIDE_KINDS: Readonly<Record<SideKind, number>> = {
  'older-copy': 3,
  'other-name': 1,
  'other-backend': 1,
};

/** Half the runs give some servers a second driver (at least one server). */
function drawDrivers(seed: number, servers: readonly ServerPlan[]): SideDriverPlan[] {
  const random = Random.stream(seed, 'drivers');
  if (!random.chance(0.5)) return [];
  const first = random.int(0, servers.length - 1);
  const drivers: SideDriverPlan[] = [];
  servers.forEach((server, index) => {
    if (index !== first && !random.chance(0.3)) return;
    const kind = random.weighted(SIDE_KINDS);
    // The older copy runs without handoff; another name shares the server's handoff, if any.
    const handoff = kind !== 'older-copy' && server.handoff && random.chance(0.7);
    drivers.push({ label: `${server.label}2`, server: server.label, kind, handoff });
  });
  return drivers;
}

/** One line for the trace's header. */
export function describeConfig(config: SimulationConfig): string {
  const servers = config.servers
    .map((server) => {
      const flags = [
        server.handoff ? '' : 'handoff off',
        server.skewMs === 0 ? '' : `clock ${server.skewMs > 0 ? '+' : ''}${server.skewMs} ms`,
        server.subscribeFailures ? `subscribe fails x${server.subscribeFailures}` : '',
        server.handOverLocks ? 'hands over' : '',
      ].filter(Boolean);
      return flags.length ? `${server.label} (${flags.join(', ')})` : server.label;
    })
    .join(', ');
  const local =
    config.localHandoffSeconds === undefined ? 'unset' : `${config.localHandoffSeconds} s`;
  const drivers = config.drivers.map(
    (driver) =>
      `${driver.label} on ${driver.server} (${driver.kind}, handoff ${driver.handoff ? 'on' : 'off'})`,
  );
  return [
    `servers ${servers}`,
    ...(drivers.length ? [`second drivers ${drivers.join(', ')}`] : []),
    `${config.players} players, ${config.steps} steps, fault rate ${config.faultRate}${config.messages ? ', messages' : ''}`,
    `lockTtl ${config.lockTtlSeconds} s, lockSkew ${config.lockSkewSeconds} s, autosave ${config.autosaveSeconds} s, lockWait ${config.lockWaitSeconds} s, localHandoff ${local}`,
    `latency store ${config.latency.storeMs} ms, message ${config.latency.messageMs} ms, presence ${config.latency.presenceMs} ms`,
  ].join('\n');
}
