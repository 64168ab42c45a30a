/**
 * The simulated world: the cluster and what the workload knows about it (which servers are
 * up, where each player really is, which trades it started). Invariants read the world; the
 * workload and the fault plan change it.
 */
import { journalPrefix, type ProfileRecord, parseStoreKey } from '@datadriver/core/rules';
import type { VirtualClock } from '@datadriver/core/testing';
import type { Cluster } from '../cluster/cluster.js';
import type { TestServer } from '../cluster/server.js';
import type { SimulationConfig } from './config.js';
import type { MessageTerms, TradeTerms } from './player-data.js';
import type { Random } from './prng.js';
import type { RecordingBackend, StoreCommit } from './recording-backend.js';
import type { SimServer } from './sim-server.js';
import type { Trace } from './trace.js';

export { type Disturbance, type ServerStatus, SimServer } from './sim-server.js';

export interface SimPlayer {
  readonly id: string;
  /** The server the player is really on (their latest join), if any. */
  current: SimServer | undefined;
  /** The last server they joined, for rejoins on the same server. */
  last: SimServer | undefined;
  /** A trade of theirs is pending: the workload leaves their data alone (README, Trades). */
  trading: boolean;
}

/**
 * `undecided`: the trade rejected with Data.Closed while its commit was being written, so its
 * decision is unknown to its server (a commit whose response was lost may have landed); only
 * atomicity is checked then.
 */
export type TradeOutcome = 'pending' | 'committed' | 'failed' | 'undecided';

export interface SimTrade extends TradeTerms {
  readonly server: SimServer;
  outcome: TradeOutcome;
}

/** A message of the workload (messages.ts): a grant from outside or a transfer between players. */
export interface SimMessage extends MessageTerms {
  readonly kind: 'grant' | 'transfer';
  /** A grant: what the first of its sends that resolved was told; `undefined` while none did. */
  told: 'queued' | 'duplicate' | undefined;
}

/** A holder armed to crash right after its next write that applies messages or debits a transfer. */
export interface ArmedCrash {
  readonly server: SimServer;
  readonly after: 'apply' | 'debit';
  /** Crashes the server (in the next tick) and disarms: called by the check that sees the write. */
  readonly fire: () => void;
}

/**
 * The sender processes of a message run (`Senders` in `messages.ts`): declared here so the
 * world imports nothing that imports it back.
 */
export interface SenderPool {
  /** The live sender, if one lives. */
  readonly live: TestServer | undefined;
  /** The live sender, started if none lives. */
  use(world: World): Promise<TestServer>;
  /** The live sender crashes: its sends in flight never resolve. */
  crash(world: World): void;
}

export class World {
  readonly servers: SimServer[] = [];
  readonly players: SimPlayer[] = [];
  readonly trades = new Map<string, SimTrade>();
  /** The servers' second drivers (config.ts), apart from `servers`: no player joins them. */
  readonly sides: SimServer[] = [];
  /** The messages the workload sent (messages.ts), by id. */
  readonly messages = new Map<string, SimMessage>();
  armedCrash: ArmedCrash | undefined;
  /**
   * Set when the final phase heals every fault: a compound fault's timers armed before it
   * (a hop, a rejoin, an older copy's takeover) then move no player, so the final phase alone
   * decides where everyone is.
   */
  healed = false;
  private readonly byJobId = new Map<string, SimServer>();
  private readonly byLabel = new Map<string, SimServer>();

  constructor(
    readonly config: SimulationConfig,
    readonly cluster: Cluster,
    readonly backend: RecordingBackend,
    readonly trace: Trace,
    readonly random: {
      readonly workload: Random;
      readonly faults: Random;
      readonly messages: Random;
    },
    /** The message workload's sender processes. */
    readonly senders: SenderPool,
  ) {}

  get clock(): VirtualClock {
    return this.backend.clock;
  }

  /** The backend's clock (ms). */
  now(): number {
    return this.clock.now();
  }

  addServer(server: SimServer): void {
    this.servers.push(server);
    this.byJobId.set(server.jobId, server);
    this.byLabel.set(server.label, server);
  }

  addSide(side: SimServer): void {
    this.sides.push(side);
    this.byLabel.set(side.label, side);
  }

  /** The second drivers running on `server`. */
  sidesOf(server: SimServer): SimServer[] {
    return this.sides.filter((side) => side.side?.on === server);
  }

  /** The driver whose connection wrote `commit`: a second driver's names it. */
  writerOf(commit: StoreCommit): SimServer | undefined {
    return commit.writer ? this.byLabel.get(commit.writer) : this.byJobId.get(commit.jobId);
  }

  /** Every driver of the player data under `jobId`: the server's own and an older copy there. */
  playerDriversOn(jobId: string): SimServer[] {
    const server = this.byJobId.get(jobId);
    if (!server) return [];
    return [server, ...this.sidesOf(server).filter((side) => side.side?.kind === 'older-copy')];
  }

  serverByJobId(jobId: string): SimServer | undefined {
    return this.byJobId.get(jobId);
  }

  serverByLabel(label: string): SimServer | undefined {
    return this.byLabel.get(label);
  }

  liveServers(): SimServer[] {
    return this.servers.filter((server) => server.live);
  }

  /** A jobId as the trace shows it: the server's label. */
  nameOf(jobId: string): string {
    return this.byJobId.get(jobId)?.label ?? jobId;
  }

  storeKey(key: string): string {
    return `${this.cluster.driverName}/${key}`;
  }

  /** Where the driver keeps `key`'s inbox (core's key layout: `<driver>#inbox/<key>`). */
  inboxKey(key: string): string {
    return `${this.cluster.driverName}#inbox/${key}`;
  }

  /** The player key of a profile's store key, or `undefined` for other keys (journals). */
  playerKeyOf(storeKey: string): string | undefined {
    const owner = parseStoreKey(storeKey);
    return owner?.kind === 'profile' && owner.driver === this.cluster.driverName
      ? owner.key
      : undefined;
  }

  /** Where core keeps trade journals: this prefix, then the trade id. */
  get journalPrefix(): string {
    return journalPrefix(this.cluster.driverName);
  }

  /** The trade id of a journal's store key, or `undefined` for other keys (profiles). */
  tradeIdOf(storeKey: string): string | undefined {
    const owner = parseStoreKey(storeKey);
    return owner?.kind === 'journal' && owner.driver === this.cluster.driverName
      ? owner.trade
      : undefined;
  }

  /**
   * The record of player `key` as stored now. Parsed once per stored version: the checks read
   * every player's record after every step. Read it, never change it.
   */
  record(key: string): ProfileRecord | undefined {
    const storeKey = this.storeKey(key);
    const version = this.backend.store.versionOf(storeKey);
    const cached = this.#records.get(key);
    if (cached !== undefined && cached.version === version) return cached.record;
    const record = this.backend.store.peek(storeKey) as ProfileRecord | undefined;
    this.#records.set(key, { version, record });
    return record;
  }

  readonly #records = new Map<
    string,
    { readonly version: string | undefined; readonly record: ProfileRecord | undefined }
  >();

  note(text: string, server?: string, key?: string): void {
    this.trace.add(this.now(), text, server, key);
  }

  /** Same-server wait of a player session (ms). */
  get localWaitMs(): number {
    return (this.config.localHandoffSeconds ?? this.config.lockWaitSeconds) * 1000;
  }

  get lockWaitMs(): number {
    return this.config.lockWaitSeconds * 1000;
  }

  /** Age after which a lock may be taken by age (ms). */
  get staleAfterMs(): number {
    return (this.config.lockTtlSeconds + this.config.lockSkewSeconds) * 1000;
  }
}
