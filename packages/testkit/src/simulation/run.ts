/**
 * One simulated run: a seed builds a cluster on the in-memory backend and the virtual clock,
 * plays the workload and the faults step by step with every invariant checked as it goes,
 * then heals everything and checks the end state. The same seed replays the same run.
 */
import { Cluster } from '../cluster/cluster.js';
import { describeConfig, drawConfig, type ServerPlan, type SimulationConfig } from './config.js';
import { maybeInjectFault } from './faults-plan.js';
import { finalPhase } from './final-phase.js';
import { flowsOfConfig } from './flows.js';
import { Invariant, type Violation } from './invariants.js';
import { applyMessage, messageStep, Senders } from './messages.js';
import { Monitor } from './monitor.js';
import { Random } from './prng.js';
import { recordingBackend } from './recording-backend.js';
import { addSideDriver } from './side-drivers.js';
import { Trace } from './trace.js';
import { type WorkloadAction, workloadStep } from './workload.js';
import { SimServer, World } from './world.js';

export interface SimulationResult {
  readonly seed: number;
  readonly config: SimulationConfig;
  /** The first invariant broken; `undefined` when the run held every one. */
  readonly violation: Violation | undefined;
  readonly steps: number;
  /** Time simulated on the virtual clock (ms). */
  readonly virtualMs: number;
  /** Time the run took (ms). */
  readonly wallMs: number;
  /** Events and faults seen, by name. */
  readonly counts: ReadonlyMap<string, number>;
  readonly trace: Trace;
}

export interface RunOptions {
  /** False: keep no trace (a batch's runs; a failing seed is replayed with one). */
  readonly trace?: boolean;
}

export async function runSimulation(
  seed: number,
  options: RunOptions = {},
): Promise<SimulationResult> {
  const wallStart = performance.now();
  const config = drawConfig(seed);
  const monitor = new Monitor();
  const backend = recordingBackend(config.latency, {
    commit: (commit) => monitor.onCommit(commit),
    presenceWrite: (write) => monitor.onPresenceWrite(write),
  });
  const origin = backend.clock.now();
  const trace = new Trace(origin, options.trace ?? true);
  trace.header.push(`seed ${seed}`, ...describeConfig(config).split('\n'));
  // The checks judge by the recorders above: the cluster keeps no ledger or events of its own.
  const cluster = new Cluster(backend, undefined, { history: false });
  trace.alias(cluster.driverName, 'PlayerData');
  trace.alias(`${cluster.namespace}-`, '');
  const world = new World(
    config,
    cluster,
    backend,
    trace,
    {
      workload: Random.stream(seed, 'workload'),
      faults: Random.stream(seed, 'faults'),
      messages: Random.stream(seed, 'messages'),
    },
    new Senders(),
  );
  monitor.attach(world);
  flowsOfConfig(world, monitor.flow);
  let steps = 0;
  try {
    for (const plan of config.servers) await addServer(world, monitor, plan);
    for (const plan of config.drivers) await addSideDriver(world, monitor, plan);
    for (let index = 0; index < config.players; index += 1) {
      world.players.push({ id: `p${index}`, current: undefined, last: undefined, trading: false });
    }
    for (; steps < config.steps && monitor.violations.length === 0; steps += 1) {
      await step(world, monitor);
    }
    if (monitor.violations.length === 0) await finalPhase(world, monitor);
  } catch (error) {
    monitor.report({
      invariant: Invariant.UnexpectedError,
      message: `the run threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    });
  }
  return {
    seed,
    config,
    violation: monitor.violations[0],
    steps,
    virtualMs: backend.clock.now() - origin,
    wallMs: performance.now() - wallStart,
    counts: monitor.counts,
    trace,
  };
}

async function addServer(world: World, monitor: Monitor, plan: ServerPlan): Promise<void> {
  const { config } = world;
  let ids = 0;
  const test = await world.cluster.server(plan.label, {
    handoff: plan.handoff,
    handOverLocks: plan.handOverLocks,
    lockWaitSeconds: config.lockWaitSeconds,
    ...(config.localHandoffSeconds === undefined
      ? {}
      : { localHandoffSeconds: config.localHandoffSeconds }),
    lockTtlSeconds: config.lockTtlSeconds,
    lockSkewSeconds: config.lockSkewSeconds,
    autosaveSeconds: config.autosaveSeconds,
    clockSkewSeconds: plan.skewMs / 1000,
    // Tokens read as "B7" in the trace: the server that drew it and its count there. The
    // cluster's namespace (aliased away) keeps them unique in the process, whose registry
    // remembers the tokens of every driver it runs, a crashed one's too: another run's "B7"
    // must not read as held here.
    createId: () => `${world.cluster.namespace}-${plan.label}${++ids}`,
    ...(config.messages ? { onMessage: applyMessage } : {}),
    prepare: ({ messenger }) => {
      if (plan.subscribeFailures === 0) return;
      messenger.faults.inject({
        kind: 'fail',
        operation: 'subscribe',
        times: plan.subscribeFailures,
      });
    },
  });
  const server = new SimServer(plan, test);
  world.addServer(server);
  test.driver.on((event) => monitor.onEvent(server, event));
  test.handoff?.on((event) => monitor.onEvent(server, event));
}

async function step(world: World, monitor: Monitor): Promise<void> {
  const action = workloadStep(world, monitor);
  await messageStep(world, monitor);
  maybeInjectFault(world, monitor);
  await world.clock.advance(stepDelayMs(world, action));
  monitor.afterStep();
}

/** Mostly moments, sometimes long enough for autosaves, expiries and locks to age. */
function stepDelayMs(world: World, action: WorkloadAction): number {
  const random = world.random.workload;
  if (action === 'pause') return random.int(10_000, 90_000);
  const roll = random.next();
  if (roll < 0.6) return random.int(0, 1500);
  if (roll < 0.87) return random.int(1500, 6000);
  return random.int(6000, 30_000);
}

/** The report of a failed run: the seed, the invariant, how to replay it, and the trace. */
export function describeFailure(
  result: SimulationResult,
  options: { full?: boolean } = {},
): string {
  const violation = result.violation;
  if (!violation) return violationLine(result);
  const where = [
    violation.server && `on ${violation.server}`,
    violation.key && `key ${violation.key}`,
  ]
    .filter(Boolean)
    .join(', ');
  // The players the violation names (a trade has two): their lines, and the lines about no key.
  const named = violation.message.match(/\bp\d+\b/g) ?? [];
  const keys = [...new Set([...(violation.key ? [violation.key] : []), ...named])];
  const selection = options.full || keys.length === 0 ? {} : { keys, last: 150 };
  return [
    violationLine(result),
    `  at +${result.trace.seconds(violation.at)} s${where ? ` (${where})` : ''}`,
    `  replay: pnpm simulate --seed ${result.seed} --trace`,
    'keys' in selection ? `trace (lines about ${keys.join(', ')}, and about no key):` : 'trace:',
    result.trace.format(selection),
  ].join('\n');
}

/** A run in one line, the first of a failure's report and its line in an exploration's log. */
export function violationLine({ seed, violation }: SimulationResult): string {
  return violation
    ? `seed ${seed}: VIOLATION ${violation.invariant}: ${violation.message}`
    : `seed ${seed}: ok`;
}

/** One line for a run that held. */
export function describeSuccess(result: SimulationResult): string {
  return `seed ${result.seed}: ok (${result.config.servers.length} servers, ${result.config.players} players, ${result.steps} steps, ${(result.virtualMs / 1000).toFixed(1)} s simulated in ${result.wallMs.toFixed(0)} ms; loads ${result.counts.get('load.loaded') ?? 0}, takeovers ${describeTakeovers(result.counts)}, trades committed ${result.counts.get('trade.committed') ?? 0})`;
}

/** Locks taken from another server, by reason: "stolen 2, stale 1, orphaned 0". */
export function describeTakeovers(counts: ReadonlyMap<string, number>): string {
  return ['stolen', 'stale', 'orphaned']
    .map((reason) => `${reason} ${counts.get(`lock.taken.${reason}`) ?? 0}`)
    .join(', ');
}
