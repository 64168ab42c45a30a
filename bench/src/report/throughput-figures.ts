import type { Figure } from '../figure.js';
import { type Calls, describeCalls, STORE_COMMANDS, sum, total } from '../measure/round-trips.js';
import { coldRing, type ThroughputResult, type Window } from '../measure/throughput.js';
import type { RunResults } from '../run.js';
import { type Summary, summarize } from '../stats.js';

export function throughputFigures(results: RunResults): Figure[] {
  return [
    ...throughputPass(results, results.throughput, ''),
    ...cycleRoundTrips(results),
    ...throughputPass(results, results.throughputPipelined, 'auto-pipelining'),
    ...coreCycleFigures(results),
  ];
}

/** Core's own CPU per cycle, with no I/O (measure/core-cycle.ts). */
function coreCycleFigures(results: RunResults): Figure[] {
  const core = results.coreCycle;
  if (!core) return [];
  return [
    {
      id: 'throughput.core-cpu',
      section: throughputSection(results),
      label: "DataDriver's own CPU per load + save + release, on the memory store (no I/O)",
      unit: 'µs',
      summary: summarize(core.cpuUsPerCycle),
      note: `${core.cpuUsPerCycle.length} windows of ${core.windowSeconds} s, ${core.players} players in flight; min is the window least disturbed by other work; up to ${Math.max(...core.cyclesPerSecond).toFixed(0)} cycles/s; in a node process of its own (\`node bench/dist/core-cycle-main.js\` runs it alone)`,
      detail: { cpuUsPerCycle: core.cpuUsPerCycle, cyclesPerSecond: core.cyclesPerSecond },
    },
  ];
}

/** Issue 21's target: store round trips per load + save + release. */
export const CYCLE_ROUND_TRIPS_GOAL = 4;

function cycleRoundTrips(results: RunResults): Figure[] {
  const throughput = results.throughput;
  if (!throughput) return [];
  const driver = meanCalls(throughput.driver);
  const cold = meanCalls(throughput.driverCold);
  const figure = (id: string, label: string, calls: Calls, note: string): Figure => {
    const store = total(calls, STORE_COMMANDS);
    return {
      id,
      section: throughputSection(results),
      label,
      unit: 'round trips',
      value: store,
      goal: `<= ${CYCLE_ROUND_TRIPS_GOAL} (issue 21)`,
      meetsGoal: store <= CYCLE_ROUND_TRIPS_GOAL + 0.005,
      note,
    };
  };
  return [
    figure(
      'roundtrips.cycle',
      'store round trips per load + save + release (DataDriver)',
      driver,
      `a player back on the server they left: the load starts from the release's snapshot; commands per cycle, counted by Redis (INFO commandstats, every window): ${describeCalls(driver)}; the same commands by hand: ${describeCalls(meanCalls(throughput.sameCommands))}; the naive lock: ${describeCalls(meanCalls(throughput.naive))}`,
    ),
    figure(
      'roundtrips.cycle-cold',
      'store round trips per load + save + release, no released snapshot (DataDriver)',
      cold,
      `a player arriving from another server: the load reads first; commands per cycle: ${describeCalls(cold)}`,
    ),
  ];
}

/** The section every throughput figure is listed under. */
function throughputSection(results: RunResults): string {
  return `Throughput (one Redis, one process, ${results.config.throughputPlayers} players in flight)`;
}

/** The commands per cycle of `windows`, averaged. */
export function meanCalls(windows: readonly Window[]): Calls {
  const all = sum(...windows.map((w) => w.callsPerCycle));
  return Object.fromEntries(Object.entries(all).map(([name, n]) => [name, n / windows.length]));
}

/** Issue 21's targets: throughput against the naive lock, redis-server's CPU against its. */
export const THROUGHPUT_GOAL = 0.5;
const REDIS_CPU_GOAL = 2;

/** One pass of DataDriver against its floors; `variant` names its client options. */
function throughputPass(
  results: RunResults,
  throughput: ThroughputResult | undefined,
  variant: string,
): Figure[] {
  if (!throughput) return [];
  const section = throughputSection(results);
  const rate = (windows: readonly Window[]) => summarize(windows.map((w) => w.cyclesPerSecond));
  const redisCpu = (windows: readonly Window[]) =>
    summarize(windows.map((w) => w.serverCpuUsPerCycle)).median;
  const cpu = (windows: readonly Window[]) => {
    const node = summarize(windows.map((w) => w.nodeCpuUsPerCycle)).median;
    return `CPU per cycle: node ${node.toFixed(0)} µs, redis-server ${redisCpu(windows).toFixed(0)} µs; commands per cycle: ${describeCalls(meanCalls(windows))}`;
  };
  const [driver, same, naive] = [throughput.driver, throughput.sameCommands, throughput.naive].map(
    rate,
  ) as [Summary, Summary, Summary];
  const windows = `${throughput.driver.length} windows of ${results.config.throughputSeconds} s each, the four variants taking turns`;
  const cold = rate(throughput.driverCold);
  const suffix = variant ? `.${variant}` : '';
  const label = (what: string) => (variant ? `${what}, with ${variant}` : what);
  const { reads, writes } = throughput.shape;
  const cpuRatio = redisCpu(throughput.driver) / redisCpu(throughput.naive);
  return [
    {
      id: `throughput.datadriver${suffix}`,
      section,
      label: label('DataDriver: load + save + release'),
      unit: 'cycles/s',
      summary: driver,
      note: `${windows}; ${cpu(throughput.driver)}`,
      detail: { windows: throughput.driver },
    },
    {
      id: `throughput.datadriver-cold${suffix}`,
      section,
      label: label('DataDriver: load + save + release, no released snapshot (the load reads)'),
      unit: 'cycles/s',
      summary: cold,
      note: `${windows}; each player over ${coldRing(results.config.throughputPlayers)} keys in turn, more than the driver keeps snapshots of; ${cpu(throughput.driverCold)}`,
      detail: { windows: throughput.driverCold },
    },
    {
      id: `throughput.same-commands${suffix}`,
      section,
      label: label(
        `the same commands by hand: ${reads} HGETALL + ${writes} compare-and-set scripts`,
      ),
      unit: 'cycles/s',
      summary: same,
      note: `${windows}; the commands DataDriver sent per cycle in this run, with no DataDriver around them; ${cpu(throughput.sameCommands)}`,
      detail: { windows: throughput.sameCommands, shape: throughput.shape },
    },
    {
      id: `throughput.naive${suffix}`,
      section,
      label: label('naive lock: SET NX + GET + SET + DEL'),
      unit: 'cycles/s',
      summary: naive,
      note: `${windows}; ${cpu(throughput.naive)}`,
      detail: { windows: throughput.naive },
    },
    {
      id: `throughput.ratio${suffix}`,
      section,
      label: label('DataDriver / naive'),
      unit: 'ratio',
      value: driver.median / naive.median,
      goal: `>= ${THROUGHPUT_GOAL} (issue 21)`,
      meetsGoal: driver.median / naive.median >= THROUGHPUT_GOAL,
      note: `medians; the same commands by hand / naive: ${(same.median / naive.median).toFixed(2)}`,
    },
    {
      id: `throughput.ratio.cold${suffix}`,
      section,
      label: label('DataDriver with no released snapshot / naive'),
      unit: 'ratio',
      value: cold.median / naive.median,
      note: 'medians: the general path, a player arriving from another server (no goal of its own)',
    },
    {
      id: `throughput.ratio.same-commands${suffix}`,
      section,
      label: label('DataDriver / the same commands by hand'),
      unit: 'ratio',
      value: driver.median / same.median,
      note: "medians: what DataDriver's own code costs over the commands it sends",
    },
    {
      id: `throughput.redis-cpu.ratio${suffix}`,
      section,
      label: label('redis-server CPU per cycle, DataDriver / naive'),
      unit: 'ratio',
      value: cpuRatio,
      goal: `<= ${REDIS_CPU_GOAL} (issue 21)`,
      meetsGoal: cpuRatio <= REDIS_CPU_GOAL,
      note: `medians of the windows: ${redisCpu(throughput.driver).toFixed(1)} µs against ${redisCpu(throughput.naive).toFixed(1)} µs (the same commands by hand: ${redisCpu(throughput.sameCommands).toFixed(1)} µs)`,
    },
  ];
}
