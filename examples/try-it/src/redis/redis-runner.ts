/**
 * The Redis `CaseRunner`: each case starts real game-server processes (`examples/game-server`)
 * on one Redis (or, from `connectPostgres`, on one PostgreSQL: `--stack postgres`), drives them as a player would (WebSocket clients), injects faults through
 * their `POST /faults` and kills A with SIGKILL for the crash case, and streams the events the
 * servers report into the same timeline the in-memory runner draws. Times are real: each
 * event's time on its server's clock, counted from when the story started.
 */
import type { CaseInfo, CaseRunner, Outcome, RunOptions, StreamSink } from '../stream.js';
import { REDIS_SCRIPTS, type RedisCaseScript } from './cases/index.js';
import { unlessInterrupted } from './interrupted.js';
import { OrderedTimeline } from './ordered-timeline.js';
import { connectPostgresRecords } from './postgres-records.js';
import { REDIS_CASES } from './redis-catalog.js';
import { type CaseRecords, RedisRecords } from './redis-records.js';
import { RedisWorld } from './redis-world.js';

/** No case, setup included, takes anywhere near this on a machine that is merely busy. */
const CASE_TIMEOUT_MS = 120_000;
/** How often the page's elapsed clock is updated while a story plays. */
const CLOCK_TICK_MS = 100;
/** After the deciding event, how long events that happened before it may still arrive. */
const STRAGGLERS_MS = 200;

export class RedisCaseRunner implements CaseRunner {
  readonly mode: 'Redis' | 'PostgreSQL';
  readonly clock = 'wall';
  readonly cases: readonly CaseInfo[] = REDIS_CASES;
  readonly about: string;
  /** Each case playing now, by the servers it plays on. */
  private readonly running = new Map<RedisWorld, Promise<Outcome>>();
  private closed = false;

  private constructor(
    private readonly redisUrl: string,
    private readonly records: CaseRecords,
    private readonly stack: 'redis' | 'postgres' = 'redis',
  ) {
    this.mode = stack === 'postgres' ? 'PostgreSQL' : 'Redis';
    this.about = `Each case starts real game-server processes (examples/game-server) on ${this.mode} at ${redisUrl}, plays the player over WebSocket, injects faults through the servers’ POST /faults and kills A with SIGKILL for the crash case. The times shown are real, read from each event’s server.`;
  }

  /** A runner on the Redis at `redisUrl`; fails at once when that Redis does not answer. */
  static async connect(redisUrl: string): Promise<RedisCaseRunner> {
    return new RedisCaseRunner(redisUrl, await RedisRecords.connect(redisUrl));
  }

  /** The same cases on game servers keeping every port on the PostgreSQL at `databaseUrl`. */
  static async connectPostgres(databaseUrl: string): Promise<RedisCaseRunner> {
    return new RedisCaseRunner(databaseUrl, await connectPostgresRecords(databaseUrl), 'postgres');
  }

  async run(caseId: string, options: RunOptions, sink: StreamSink): Promise<Outcome> {
    const info = this.cases.find((item) => item.id === caseId);
    const script = REDIS_SCRIPTS.get(caseId);
    if (!info || !script) throw new RangeError(`no case ${caseId}`);
    if (this.closed) throw new Error('the demo is stopping');
    // A case played `pace` times faster runs the seed's constants `pace` times shorter.
    const world = new RedisWorld({
      redisUrl: this.redisUrl,
      stack: this.stack,
      scale: 1 / info.pace,
    });
    const running = this.playOnce(world, info, script, sink, options.signal);
    this.running.set(world, running);
    try {
      return await running;
    } finally {
      this.running.delete(world);
    }
  }

  /** Kills the servers of every case still playing, lets those runs end, then disconnects. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.keys()].map((world) => world.stop()));
    await Promise.allSettled([...this.running.values()]);
    await this.records.close();
  }

  /** Plays a case on `world`, then kills its servers and deletes its record, however it ended. */
  private async playOnce(
    world: RedisWorld,
    info: CaseInfo,
    script: RedisCaseScript,
    sink: StreamSink,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    try {
      return await this.play(world, info, script, sink, signal);
    } finally {
      await world.stop();
      await this.records.remove(world.names.user).catch((error: unknown) => {
        console.error(`could not delete the record of ${world.names.user} from Redis:`, error);
      });
    }
  }

  private async play(
    world: RedisWorld,
    info: CaseInfo,
    script: RedisCaseScript,
    sink: StreamSink,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const interrupts = { failed: world.failed, signal, timeoutMs: CASE_TIMEOUT_MS };
    const deadline = Date.now() + CASE_TIMEOUT_MS;
    const story = await unlessInterrupted(script.setup(world), interrupts);
    const start = Date.now();
    sink({
      kind: 'started',
      caseId: info.id,
      mode: this.mode,
      servers: info.servers,
      rate: info.pace,
    });
    const timeline = new OrderedTimeline(start, sink);
    world.on((event) => timeline.add(event));
    const ticker = setInterval(() => sink({ kind: 'clock', t: Date.now() - start }), CLOCK_TICK_MS);
    try {
      const played = await unlessInterrupted(story(), {
        ...interrupts,
        timeoutMs: deadline - Date.now(),
      });
      clearInterval(ticker);
      await world.sleep(STRAGGLERS_MS);
      const end = played.at - start;
      timeline.finish(end);
      const outcome = { ...played.outcome, stored: await this.stored(world) };
      sink({ kind: 'outcome', t: end, outcome });
      return outcome;
    } finally {
      clearInterval(ticker);
      // After a failure, what happened up to now is on the page beside the error (after the
      // outcome, the timeline is already finished and this does nothing).
      timeline.finish(Date.now() - start);
    }
  }

  /** The record as Redis holds it now, with its lock's holder as the page names it. */
  private async stored(world: RedisWorld) {
    const record = await this.records.read(world.names.user);
    if (!record) throw new Error('Redis holds no record for the player');
    const holder = record.holderJobId === null ? null : world.names.labelOf(record.holderJobId);
    return { coins: record.coins, holder, presenceFlag: record.presenceFlag };
  }
}
