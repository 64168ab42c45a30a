/**
 * The bench's side of message-holder-main.ts: starts the holder process and hands each
 * `applied` line it prints to whoever waits for it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { MessageHolderArgs } from '../processes/message-holder-main.js';
import { wallNow } from './wall-clock.js';

const HOLDER_SCRIPT = fileURLToPath(new URL('./processes/message-holder-main.js', import.meta.url));
const READY_TIMEOUT_MS = 30_000;

/** One `applied` line: the ids a pass applied (driver mode) or the request's n (floor). */
export interface Applied {
  readonly ids?: readonly string[];
  readonly n?: number;
  /** The holder's wall clock when it knew the write committed (wall-clock.ts). */
  readonly at: number;
}

export class MessageHolder {
  private listener: ((applied: Applied) => void) | undefined;
  private clockListener: ((at: number) => void) | undefined;

  private constructor(
    readonly args: MessageHolderArgs,
    private readonly child: ChildProcess,
  ) {}

  static start(args: MessageHolderArgs): Promise<MessageHolder> {
    const child = spawn(process.execPath, [HOLDER_SCRIPT, JSON.stringify(args)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const holder = new MessageHolder(args, child);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the message holder (${args.mode}) did not get ready`));
      }, READY_TIMEOUT_MS);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const parsed = JSON.parse(line) as { type: string } & Applied;
        if (parsed.type === 'ready') {
          clearTimeout(timer);
          resolve(holder);
        } else if (parsed.type === 'applied') holder.listener?.(parsed);
        else if (parsed.type === 'clock') holder.clockListener?.(parsed.at);
      });
      child.once('exit', (code) => reject(new Error(`the message holder exited with ${code}`)));
    });
  }

  /**
   * How far the holder's wall clock is ahead of this process's (ms): each process's
   * `performance.timeOrigin` is the system clock at its start, so two processes started
   * minutes apart disagree by as much as that clock moved against the monotonic one meanwhile
   * (a floor sample came out at -0.16 ms before this). Of `pings` round trips over the pipes,
   * the shortest one's midpoint: wrong by at most half of it.
   */
  async clockOffset(pings = 40): Promise<{ offsetMs: number; roundTripMs: number }> {
    let best = { offsetMs: 0, roundTripMs: Number.POSITIVE_INFINITY };
    for (let ping = 0; ping < pings; ping++) {
      const sentAt = wallNow();
      const at = await new Promise<number>((resolve) => {
        this.clockListener = resolve;
        this.child.stdin?.write('clock\n');
      });
      const back = wallNow();
      if (back - sentAt < best.roundTripMs) {
        best = { offsetMs: at - (sentAt + back) / 2, roundTripMs: back - sentAt };
      }
    }
    this.clockListener = undefined;
    return best;
  }

  /** Every `applied` line from now on goes to `listener` (one at a time). */
  onApplied(listener: ((applied: Applied) => void) | undefined): void {
    this.listener = listener;
  }

  /** Resolves with the first `applied` line `accept` takes, or rejects after `timeoutMs`. */
  next(accept: (applied: Applied) => boolean, timeoutMs: number): Promise<Applied> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listener = undefined;
        reject(new Error(`nothing applied on the ${this.args.mode} holder in ${timeoutMs} ms`));
      }, timeoutMs);
      this.listener = (applied) => {
        if (!accept(applied)) return;
        clearTimeout(timer);
        this.listener = undefined;
        resolve(applied);
      };
    });
  }

  /** Closes its stdin (it releases what it holds and exits) and waits for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
