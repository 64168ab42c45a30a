/**
 * The physical limit run as one sequence between two real processes: this process (B)
 * publishes a request, the holder process (A) writes its release and replies, B writes its
 * lock. The same round trips as the summed legs of physical-limit.ts, but paying what any
 * two-process hand-over pays on this machine: waking the other process for each message.
 * One sample at a time, so the caller decides what comes between samples (nothing, for the
 * back-to-back floor; the hops' own spacing, for the gap-matched one: see handover-floors.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Combo, RunningBackends } from '../backends.js';
import type { LimitHolderArgs } from '../processes/limit-holder-main.js';
import { type ConditionalWriter, writerOn } from './conditional-writes.js';
import { busOf, storeOf } from './limit-backends.js';
import { messengerOn, type OwnMessenger } from './messenger-pairs.js';

const HOLDER_SCRIPT = fileURLToPath(new URL('./processes/limit-holder-main.js', import.meta.url));
const REPLY_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 30_000;

export class TwoProcessLimit {
  private replied: ((n: number) => void) | undefined;
  private next = 0;

  private constructor(
    private readonly args: LimitHolderArgs,
    private readonly holder: ChildProcess,
    private readonly own: OwnMessenger,
    private readonly writer: ConditionalWriter,
  ) {}

  static async start(combo: Combo, backends: RunningBackends): Promise<TwoProcessLimit> {
    const tag = `bench-limit2-${combo.id}-${process.pid}-${Date.now()}`;
    const args: LimitHolderArgs = {
      bus: busOf(combo, backends),
      store: storeOf(combo, backends),
      requestTopic: `${tag}-request`,
      replyTopic: `${tag}-reply`,
      key: `${tag}-A`,
    };
    const holder = await startHolder(args);
    const own = messengerOn(args.bus);
    const writer = await writerOn(args.store, `${tag}-B`);
    const limit = new TwoProcessLimit(args, holder, own, writer);
    await own.messenger.subscribe(args.replyTopic, (message) => {
      limit.replied?.((message as { n: number }).n);
    });
    return limit;
  }

  /** One run of the four round trips; resolves with how long it took (ms). */
  async sample(): Promise<number> {
    const n = this.next++;
    const started = performance.now();
    const reply = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply ${n}`)), REPLY_TIMEOUT_MS);
      this.replied = (got) => {
        if (got !== n) return;
        clearTimeout(timer);
        resolve();
      };
    });
    await this.own.messenger.publish(this.args.requestTopic, {
      T: 'Q',
      D: 'PlayerData',
      K: 'bench',
      n,
    });
    await reply;
    await this.writer.write();
    return performance.now() - started;
  }

  async close(): Promise<void> {
    this.holder.stdin?.end();
    this.writer.close();
    await this.own.close();
  }
}

function startHolder(args: LimitHolderArgs): Promise<ChildProcess> {
  const child = spawn(process.execPath, [HOLDER_SCRIPT, JSON.stringify(args)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the limit holder did not get ready'));
    }, READY_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).once('line', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the limit holder exited with ${code}`)));
  });
}
