/** Turns a run's raw results into the report's figures, each against its goal or reference. */
import type { Combo } from '../backends.js';
import { MESSAGE_LIMITS_TIMES } from '../config.js';
import type { Figure } from '../figure.js';
import type { Crash } from '../measure/crash-takeover.js';
import type { TwoProcessFloors } from '../measure/handover-floors.js';
import type { IdleCost } from '../measure/idle-cost.js';
import {
  BUS_COMMANDS,
  type Calls,
  describeCalls,
  PRESENCE_COMMANDS,
  STORE_COMMANDS,
  sum,
  total,
} from '../measure/round-trips.js';
import type { ThroughputResult, Window } from '../measure/throughput.js';
import type { PeerResult } from '../peer/peer-measure.js';
import type { RunResults } from '../run.js';
import { type Summary, summarize } from '../stats.js';

export const RATIO_GOAL = 2;

export function figuresOf(results: RunResults): Figure[] {
  return [
    ...results.combos.flatMap((combo) => handoverFigures(results, combo)),
    ...staleFigures(results),
    ...rejoinFigures(results),
    ...crashFigures(results.crashes ?? [], results.config.crashScale),
    ...throughputFigures(results),
    ...(results.idle ?? []).map(idleFigure),
    ...peerFigures(results.peer, results.config.peerLeaseMs, results.config.peerHeartbeatMs),
  ];
}

function handoverFigures(results: RunResults, combo: Combo): Figure[] {
  const handover = results.handover[combo.id];
  const limit = results.limit[combo.id];
  const profile = results.profile[combo.id];
  const twoProcess = results.twoProcessLimit[combo.id];
  if (!handover || !limit || !profile || !twoProcess) return [];
  const section = 'Live hand-over';
  const measured = summarize(handover.samples);
  const floor = summarize(limit.samples);
  const message = summarize(limit.message).median;
  const write = summarize(limit.write).median;
  // The stricter floor: the sum of the legs' medians (the median of summed samples is larger).
  const limitMs = 2 * message + 2 * write;
  const ratio = measured.median / limitMs;
  const inProcess = summarize(profile.samples);
  return [
    {
      id: `handover.${combo.id}`,
      section,
      label: combo.label,
      unit: 'ms',
      summary: measured,
      note: `from the socket's open on B to loaded on B (the WebSocket handshake before it, median ${summarize(handover.handshakes).median.toFixed(2)} ms, not counted); B's own waitedMs median ${summarize(handover.waited).median.toFixed(2)} ms; ${handover.kicks} of ${handover.hops} holders kicked the live session; a message dropped over a server's budget in ${handover.limited} hops (budgets x${MESSAGE_LIMITS_TIMES}); events reached the bench during the hop from the holder in ${handover.eventsDuringHop.holder} and from B in ${handover.eventsDuringHop.target} of ${handover.samples.length} hops (a server ships them once quiet)`,
      detail: {
        phasesMedianMs: handover.phases,
        waitedMs: summarize(handover.waited),
        handshakeMs: summarize(handover.handshakes),
      },
    },
    {
      id: `limit.${combo.id}`,
      section,
      label: `physical limit, ${combo.label}`,
      unit: 'ms',
      summary: floor,
      goal: `sum of leg medians ${limitMs.toFixed(2)} ms`,
      note: `2 messages (median ${message.toFixed(2)} ms) + 2 conditional writes (median ${write.toFixed(2)} ms); the row's figures sum one sample of each leg`,
      detail: { message: summarize(limit.message), write: summarize(limit.write) },
    },
    ...twoProcessLimits(combo, twoProcess),
    {
      id: `ratio.${combo.id}`,
      section,
      label: `hand-over / limit, ${combo.label}`,
      unit: 'ratio',
      value: ratio,
      goal: `< ${RATIO_GOAL}`,
      meetsGoal: ratio < RATIO_GOAL,
      note: 'hand-over median / the sum of the leg medians',
    },
    ...twoProcessRatios(combo, measured.median, twoProcess),
    {
      id: `handover.${combo.id}.in-process`,
      section,
      label: `profile: the same hop between two servers in one process, ${combo.label}`,
      unit: 'ms',
      summary: inProcess,
      note: `steps (median ms): ${describeSteps(profile.steps)}`,
      detail: { stepsMedianMs: profile.steps },
    },
    {
      id: `ratio.${combo.id}.in-process`,
      section,
      label: `profile: in-process hand-over / limit, ${combo.label}`,
      unit: 'ratio',
      value: inProcess.median / limitMs,
      goal: `< ${RATIO_GOAL}`,
      meetsGoal: inProcess.median / limitMs < RATIO_GOAL,
      note: 'what the protocol costs without the processes and the WebSocket kick',
    },
    roundTripFigure(combo, profile.callsPerHop, results.hopCalls[combo.id]),
  ];
}

/** Issue 21's target: store round trips per all-Redis hand-over. */
const HANDOVER_ROUND_TRIPS_GOAL = 4;

function roundTripFigure(combo: Combo, inProcess: Calls, between: Calls | undefined): Figure {
  const store = total(inProcess, STORE_COMMANDS);
  const byPort = (calls: Calls) =>
    `store ${describeCalls(pick(calls, STORE_COMMANDS))}; presence ${describeCalls(pick(calls, PRESENCE_COMMANDS))}; messages ${describeCalls(pick(calls, BUS_COMMANDS))}`;
  const processes =
    between === undefined
      ? ''
      : combo.id === 'dynamodb-redis'
        ? `; between the game-server processes (Redis only: the store is DynamoDB's) ${byPort(between)}`
        : `; between the game-server processes ${byPort(between)}`;
  const goal = combo.id === 'all-redis' ? HANDOVER_ROUND_TRIPS_GOAL : undefined;
  return {
    id: `roundtrips.${combo.id}.handover`,
    section: 'Live hand-over',
    label: `store round trips per hand-over, ${combo.label}`,
    unit: 'round trips',
    value: store,
    ...(goal === undefined
      ? {}
      : { goal: `<= ${goal} (issue 21)`, meetsGoal: store <= goal + 0.005 }),
    note: `commands each hop sent, counted at the backends (Redis INFO commandstats, DynamoDB requests) over the in-process profile's hops: ${byPort(inProcess)}${processes}`,
    detail: { inProcess, ...(between ? { betweenProcesses: between } : {}) },
  };
}

function pick(calls: Calls, names: readonly string[]): Calls {
  return Object.fromEntries(Object.entries(calls).filter(([name]) => names.includes(name)));
}

/** Issue 21's targets for the hand-over against its gap-matched two-process floor. */
const TWO_PROCESS_GOAL: Readonly<Record<Combo['id'], number>> = {
  'all-redis': 2.5,
  'dynamodb-redis': 2,
  'redis-pubsub': 2,
};

function twoProcessLimits(combo: Combo, floors: TwoProcessFloors): Figure[] {
  const section = 'Live hand-over';
  const spacing = `hops spaced median ${summarize(floors.hopGaps).median.toFixed(2)} ms, these samples idle median ${summarize(floors.floorGaps).median.toFixed(2)} ms before each`;
  const interleaved = `interleaved with the hops in blocks of ${floors.blockSize}`;
  return [
    {
      id: `limit.${combo.id}.two-process`,
      section,
      label: `physical limit between two processes, spaced like the hops, ${combo.label}`,
      unit: 'ms',
      summary: summarize(floors.gapMatched),
      note: `the same four round trips run in sequence (B publishes, A writes and replies, B writes), each after the idle gap one hop had before it (${spacing}); ${interleaved}`,
      detail: { hopGapMs: summarize(floors.hopGaps), idleGapMs: summarize(floors.floorGaps) },
    },
    {
      id: `limit.${combo.id}.two-process.back-to-back`,
      section,
      label: `physical limit between two processes, back to back, ${combo.label}`,
      unit: 'ms',
      summary: summarize(floors.backToBack),
      note: `the same sequence with no idle between samples (as the bench measured it before issue 21); ${interleaved}`,
    },
  ];
}

function twoProcessRatios(combo: Combo, handoverMs: number, floors: TwoProcessFloors): Figure[] {
  const section = 'Live hand-over';
  const gapMatched = summarize(floors.gapMatched);
  const backToBack = summarize(floors.backToBack);
  const goal = TWO_PROCESS_GOAL[combo.id];
  return [
    {
      id: `ratio.${combo.id}.two-process`,
      section,
      label: `hand-over / two-process limit spaced like the hops, ${combo.label}`,
      unit: 'ratio',
      value: handoverMs / gapMatched.median,
      goal: `<= ${goal} (issue 21)`,
      meetsGoal: handoverMs / gapMatched.median <= goal,
      note: 'medians, both between two real processes, both after the same idle gaps',
    },
    {
      id: `ratio.${combo.id}.two-process.back-to-back`,
      section,
      label: `hand-over / back-to-back two-process limit, ${combo.label}`,
      unit: 'ratio',
      value: handoverMs / backToBack.median,
      goal: `< ${RATIO_GOAL}`,
      meetsGoal: handoverMs / backToBack.median < RATIO_GOAL,
      note: 'medians; a floor whose vCPUs never idle, so warmer than any hop',
    },
  ];
}

function describeSteps(steps: Readonly<Record<string, number>>): string {
  return Object.entries(steps)
    .map(([name, ms]) => `${name.replace(' -> ', '→')} ${ms.toFixed(2)}`)
    .join(', ');
}

/** A stale hand-over should cost about one save; a second is far beyond that on any backend. */
const STALE_GOAL_MS = 1000;

function staleFigures(results: RunResults): Figure[] {
  const stale = results.stale ?? [];
  if (stale.length === 0) return [];
  const refused = stale.reduce((sum, trial) => sum + trial.refusedJoins, 0);
  const kept = stale.filter((trial) => trial.keptData).length;
  const summary = summarize(stale.map((trial) => trial.waitedMs));
  return [
    {
      id: 'handover.all-redis.stale-connection',
      section: 'Live hand-over from a stale connection (all-Redis, game-server processes)',
      label: 'old connection open but silent: first join on B to loaded on B',
      unit: 'ms',
      summary,
      goal: `seed: about one save (< ${STALE_GOAL_MS} ms, no join refused)`,
      meetsGoal: summary.max < STALE_GOAL_MS && refused === 0,
      note: `${refused} joins refused after lockWaitSeconds and retried; ${kept} of ${stale.length} kept A's latest data`,
    },
  ];
}

function rejoinFigures(results: RunResults): Figure[] {
  const rejoin = results.rejoin;
  if (!rejoin) return [];
  const save = summarize(rejoin.save);
  const section = 'Same-server rejoin (all-Redis)';
  return [
    {
      id: 'rejoin.during-save',
      section,
      label: 'during the leave save',
      unit: 'ms',
      summary: summarize(rejoin.duringSave),
      goal: `the save's remainder, then the load (one save: ${save.median.toFixed(2)} ms)`,
      note: `${rejoin.waitedForSave} of ${rejoin.duringSave.length} joins found the save still running and waited for it`,
    },
    {
      id: 'rejoin.after-failed-save',
      section,
      label: 'after a failed leave save (adoption)',
      unit: 'ms',
      summary: summarize(rejoin.afterFailedSave),
      goal: 'no wait: the adoption save only',
      note: 'every adoption kept the retained data',
    },
    {
      id: 'rejoin.one-save',
      section,
      label: 'one save, for reference',
      unit: 'ms',
      summary: save,
    },
  ];
}

function crashFigures(crashes: readonly Crash[], scale: number): Figure[] {
  if (crashes.length === 0) return [];
  const seconds = (values: number[]) => summarize(values.map((ms) => ms / 1000));
  const floor = seconds(crashes.map((crash) => crash.floorMs));
  const sinceBeat = seconds(crashes.map((crash) => crash.sinceLastBeatMs));
  const section = `Crash takeover (all-Redis, beat ${seconds1(3 * scale)} s, TTL ${seconds1(10 * scale)} s)`;
  const refused = crashes.reduce((sum, crash) => sum + crash.refusedJoins, 0);
  const excess = seconds(crashes.map((crash) => crash.takeoverMs - crash.floorMs));
  return [
    {
      id: 'crash.datadriver',
      section,
      label: 'DataDriver: SIGKILL of A to loaded on B',
      unit: 's',
      summary: seconds(crashes.map((crash) => crash.takeoverMs)),
      goal: `each crash's floor (${floor.min.toFixed(1)}-${floor.max.toFixed(1)} s here)`,
      note: `${crashes.length} crashes at random beat phases; above its own floor by ${excess.median.toFixed(2)} s median, ${excess.max.toFixed(2)} s max; ${refused} joins refused after lockWaitSeconds and retried`,
      detail: { floor, excessOverFloor: excess },
    },
    {
      id: 'crash.datadriver.floor',
      section,
      label: 'floor: presence expiry + one beat, from the kill',
      unit: 's',
      summary: floor,
      note: "expiry read from Redis (PTTL of A's presence key) right after each kill",
    },
    {
      id: 'crash.datadriver.since-last-beat',
      section,
      label: "DataDriver: A's last beat to loaded on B",
      unit: 's',
      summary: sinceBeat,
      goal: `floor ${seconds1(13 * scale)} s; seed: ${seconds1(13 * scale)}-${seconds1(15 * scale)} s`,
      note: 'TTL + the two empty reads a beat apart, + up to one park (2 s at scale 1) of retry spacing',
    },
  ];
}

/** Seconds with at most one decimal: 0.30000000000000004 reads 0.3. */
function seconds1(value: number): string {
  return String(Number(value.toFixed(1)));
}

function throughputFigures(results: RunResults): Figure[] {
  return [
    ...throughputPass(results, results.throughput, ''),
    ...cycleRoundTrips(results),
    ...throughputPass(results, results.throughputPipelined, 'auto-pipelining'),
  ];
}

/** Issue 21's target: store round trips per load + save + release. */
const CYCLE_ROUND_TRIPS_GOAL = 4;

function cycleRoundTrips(results: RunResults): Figure[] {
  const throughput = results.throughput;
  if (!throughput) return [];
  const driver = meanCalls(throughput.driver);
  const store = total(driver, STORE_COMMANDS);
  return [
    {
      id: 'roundtrips.cycle',
      section: `Throughput (one Redis, one process, ${results.config.throughputPlayers} players in flight)`,
      label: 'store round trips per load + save + release (DataDriver)',
      unit: 'round trips',
      value: store,
      goal: `<= ${CYCLE_ROUND_TRIPS_GOAL} (issue 21)`,
      meetsGoal: store <= CYCLE_ROUND_TRIPS_GOAL + 0.005,
      note: `commands per cycle, counted by Redis (INFO commandstats, every window): ${describeCalls(driver)}; the same commands by hand: ${describeCalls(meanCalls(throughput.sameCommands))}; the naive lock: ${describeCalls(meanCalls(throughput.naive))}`,
    },
  ];
}

/** The commands per cycle of `windows`, averaged. */
function meanCalls(windows: readonly Window[]): Calls {
  const all = sum(...windows.map((w) => w.callsPerCycle));
  return Object.fromEntries(Object.entries(all).map(([name, n]) => [name, n / windows.length]));
}

/** Issue 21's targets: throughput against the naive lock, redis-server's CPU against its. */
const THROUGHPUT_GOAL = 0.5;
const REDIS_CPU_GOAL = 2;

/** One pass of DataDriver against its floors; `variant` names its client options. */
function throughputPass(
  results: RunResults,
  throughput: ThroughputResult | undefined,
  variant: string,
): Figure[] {
  if (!throughput) return [];
  const section = `Throughput (one Redis, one process, ${results.config.throughputPlayers} players in flight)`;
  const rate = (windows: readonly Window[]) => summarize(windows.map((w) => w.cyclesPerSecond));
  const redisCpu = (windows: readonly Window[]) =>
    summarize(windows.map((w) => w.redisCpuUsPerCycle)).median;
  const cpu = (windows: readonly Window[]) => {
    const node = summarize(windows.map((w) => w.nodeCpuUsPerCycle)).median;
    return `CPU per cycle: node ${node.toFixed(0)} µs, redis-server ${redisCpu(windows).toFixed(0)} µs; commands per cycle: ${describeCalls(meanCalls(windows))}`;
  };
  const [driver, same, naive] = [throughput.driver, throughput.sameCommands, throughput.naive].map(
    rate,
  ) as [Summary, Summary, Summary];
  const windows = `${throughput.driver.length} windows of ${results.config.throughputSeconds} s each, the three taking turns`;
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

function idleFigure(idle: IdleCost): Figure {
  const { store, presence, bus } = idle.perMinute;
  return {
    id: `idle.${idle.drivers}`,
    section: 'Idle cost per server (all-Redis, seed constants)',
    label: `${idle.drivers} driver${idle.drivers === 1 ? '' : 's'} attached, no players`,
    unit: 'ops/min',
    value: store + presence + bus,
    note: `store ${store.toFixed(1)}, presence ${presence.toFixed(1)}, bus ${bus.toFixed(1)} per minute over ${idle.seconds} s; at start-up ${JSON.stringify(idle.startup)}`,
    detail: { ...idle },
  };
}

function peerFigures(peer: PeerResult | undefined, leaseMs: number, heartbeatMs: number): Figure[] {
  if (!peer) return [];
  const section = `Peer: dynamodb-lock-client (lease ${leaseMs / 1000} s, heartbeat ${heartbeatMs / 1000} s)`;
  const seconds = (values: number[]) => summarize(values.map((ms) => ms / 1000));
  const liveTrials = peer.liveGaveUpMs.length + peer.liveAcquired;
  return [
    {
      id: 'peer.crash',
      section,
      label: 'crash takeover: SIGKILL of holder to lock held',
      unit: 's',
      summary: seconds(peer.crashes.map((crash) => crash.takeoverMs)),
      note: `${peer.crashes.length} crashes at random heartbeat phases; the joiner waits a whole lease after its first read`,
      detail: { sinceLastBeat: seconds(peer.crashes.map((crash) => crash.sinceLastBeatMs)) },
    },
    {
      id: 'peer.handover.live',
      section,
      label: 'live hand-over (player still on the holder)',
      unit: 's',
      summary: seconds(peer.liveGaveUpMs.length > 0 ? peer.liveGaveUpMs : [Number.NaN]),
      note: `${peer.liveAcquired} of ${liveTrials} joins got the lock: a live holder keeps beating, so the joiner gives up after two leases`,
    },
    {
      id: 'peer.handover.leave-and-join',
      section,
      label: 'leave-and-join hand-over (holder releases as B acquires)',
      unit: 'ms',
      summary: summarize(peer.handovers),
      note: `${peer.handovers.filter((ms) => ms >= leaseMs).length} of ${peer.handovers.length} waited a whole lease (B read the lock before the release landed); the rest took one read and one write`,
    },
  ];
}
