import type { Figure } from '../figure.js';
import type { Crash } from '../measure/crash-takeover.js';
import type { IdleCost } from '../measure/idle-cost.js';
import type { PlayerHour } from '../measure/player-hour.js';
import type { PeerResult } from '../peer/peer-measure.js';
import type { RunResults } from '../run.js';
import { summarize } from '../stats.js';
import { handoverFigures } from './handover-figures.js';
import { messageFigures } from './message-figures.js';
import { postgresThroughputFigures } from './postgres-throughput-figures.js';
import { throughputFigures } from './throughput-figures.js';

export function figuresOf(results: RunResults): Figure[] {
  return [
    ...results.combos.flatMap((combo) => handoverFigures(results, combo)),
    ...staleFigures(results),
    ...rejoinFigures(results),
    ...crashFigures(results.crashes ?? [], results.config.crashScale),
    ...throughputFigures(results),
    ...postgresThroughputFigures(results),
    ...messageFigures(results),
    ...(results.idle ?? []).map(idleFigure),
    ...(results.playerHours ?? []).flatMap(playerHourFigures),
    ...peerFigures(results.peer, results.config.peerLeaseMs, results.config.peerHeartbeatMs),
  ];
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
      goal: `lock handoff rules: about one save (< ${STALE_GOAL_MS} ms, no join refused)`,
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
      goal: `each crash's floor (${floor.min.toFixed(1)}-${floor.max.toFixed(1)} s here), above it by at most 0.25 s median and 0.5 s p99`,
      note: `${crashes.length} crashes at random beat phases; above its own floor by ${excess.median.toFixed(2)} s median, ${excess.p99.toFixed(2)} s p99, ${excess.max.toFixed(2)} s max; ${refused} joins refused after lockWaitSeconds and retried`,
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
      goal: `floor ${seconds1(13 * scale)} s; lock handoff rules: ${seconds1(13 * scale)}-${seconds1(15 * scale)} s`,
      note: "TTL + the two empty reads a beat apart: B reads again as A's key expires (PTTL, with the GET), not at its next park",
    },
  ];
}

/** Seconds with at most one decimal: 0.30000000000000004 reads 0.3. */
function seconds1(value: number): string {
  return String(Number(value.toFixed(1)));
}

function idleFigure(idle: IdleCost): Figure {
  const { store, presence, bus } = idle.perMinute;
  return {
    id: `idle.${idle.drivers}`,
    section: 'Idle cost per server (all-Redis, default timings)',
    label: `${idle.drivers} driver${idle.drivers === 1 ? '' : 's'} attached, no players`,
    unit: 'ops/min',
    value: store + presence + bus,
    note: `store ${store.toFixed(1)}, presence ${presence.toFixed(1)}, bus ${bus.toFixed(1)} per minute over ${idle.seconds} s; at start-up ${JSON.stringify(idle.startup)}`,
    detail: { ...idle },
  };
}

function playerHourFigures(hour: PlayerHour): Figure[] {
  const section = 'What a player-hour costs the store (default settings, virtual clock)';
  const who =
    hour.player === 'idle'
      ? 'an idle player (loaded, never changed)'
      : 'an active player (changed before every autosave)';
  const store = hour.store === 'redis' ? 'Redis' : 'DynamoDB';
  const units = hour.writeUnits === undefined ? '' : `; ${hour.writeUnits} write units reported`;
  const perWrite = hour.writes === 0 ? 0 : hour.bytes / hour.writes;
  return [
    {
      id: `player-hour.${hour.store}.${hour.player}.writes`,
      section,
      label: `${store}: store writes in an hour of ${who}`,
      unit: 'writes/h',
      value: hour.writes / hour.hours,
      goal: hour.player === 'idle' ? '60 (one lock refresh a minute)' : '120 (every autosave)',
      meetsGoal: hour.writes / hour.hours === (hour.player === 'idle' ? 60 : 120),
      note: `${hour.reads} reads; autosave 30 s, lock TTL 180 s; ${hour.writes} writes in ${hour.hours * 60} virtual minutes${units}`,
      detail: { ...hour },
    },
    {
      id: `player-hour.${hour.store}.${hour.player}.bytes`,
      section,
      label: `${store}: record bytes written in an hour of ${who}`,
      unit: 'KB/h',
      value: hour.bytes / 1024 / hour.hours,
      note: `${perWrite.toFixed(0)} bytes of record JSON per write`,
    },
  ];
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
