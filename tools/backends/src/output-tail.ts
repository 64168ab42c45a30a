import type { ChildProcess } from 'node:child_process';

export interface OutputTail {
  text(): string;
}

/**
 * Keeps the last `limit` characters of a child's stdout and stderr. Reading the pipes also keeps
 * a chatty child from blocking on a full pipe; the tail is what a start failure reports.
 */
export function captureOutput(child: ChildProcess, limit = 8192): OutputTail {
  let tail = '';
  const append = (chunk: Buffer | string): void => {
    tail = (tail + chunk.toString()).slice(-limit);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { text: () => tail.trim() };
}
