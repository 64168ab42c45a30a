/** The bench's handle on a peer holder process (lease-holder-main.ts). */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { hasExited } from '@datadriver/backends';
import type { HolderArgs } from './lease-holder-main.js';

const HOLDER_SCRIPT = fileURLToPath(new URL('./peer/lease-holder-main.js', import.meta.url));
const ACQUIRE_TIMEOUT_MS = 30_000;

interface HolderLine {
  readonly type: 'acquired' | 'beat' | 'released' | 'error';
  readonly at?: number;
  readonly key?: string;
  readonly message?: string;
}

export class LeaseHolder {
  /** This process's clock (Date.now) of the holder's last heartbeat write. */
  lastBeat: number | undefined;
  private readonly waiters = new Set<(line: HolderLine) => void>();

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as HolderLine;
      if (line.type === 'beat') this.lastBeat = line.at;
      for (const waiter of [...this.waiters]) waiter(line);
    });
  }

  /** Starts a holder and resolves once it holds every key. */
  static async start(args: HolderArgs): Promise<LeaseHolder> {
    const child = spawn(process.execPath, [HOLDER_SCRIPT, JSON.stringify(args)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const holder = new LeaseHolder(child);
    try {
      await holder.next((line) => line.type === 'acquired', 'acquired');
    } catch (error) {
      // No trial holds this holder: it must not keep acquiring past the trial's failure.
      await holder.kill();
      throw error;
    }
    return holder;
  }

  /** Asks the holder to release `key` (as on the player's leave); does not wait. */
  release(key: string): void {
    this.child.stdin?.write(`release ${key}\n`);
  }

  released(key: string): Promise<void> {
    return this.next((line) => line.type === 'released' && line.key === key, `released ${key}`);
  }

  /** SIGKILL, the crash the peer is measured against; resolves once the holder is gone. */
  kill(): Promise<void> {
    if (hasExited(this.child)) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGKILL');
    });
  }

  private next(matches: (line: HolderLine) => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`peer holder: no ${what} within ${ACQUIRE_TIMEOUT_MS} ms`));
      }, ACQUIRE_TIMEOUT_MS);
      const waiter = (line: HolderLine) => {
        const failed = line.type === 'error';
        if (!failed && !matches(line)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        if (failed) reject(new Error(`peer holder: ${line.message}`));
        else resolve();
      };
      this.waiters.add(waiter);
      this.child.once('exit', () => reject(new Error(`peer holder exited before ${what}`)));
    });
  }
}
