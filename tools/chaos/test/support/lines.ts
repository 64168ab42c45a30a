/** Hand-written history lines for the checker's tests: one server process per origin. */
import type { HistoryLine, ServerLine } from '../../src/history.js';

type Body = ServerLine extends infer L
  ? L extends ServerLine
    ? Omit<L, 'server' | 'incarnation'>
    : never
  : never;

export function on(server: string, ...bodies: Body[]): HistoryLine[] {
  return bodies.map((body) => ({ server, incarnation: 1, ...body }) as ServerLine);
}

/** A load of `key` from `startedAt` to `at`, reading `value` under `token`. */
export function load(
  key: string,
  loadId: number,
  startedAt: number,
  at: number,
  token: string,
  value: number,
): Body[] {
  return [
    { kind: 'load-started', at: startedAt, key, loadId },
    { kind: 'load-ended', at, key, loadId, outcome: 'loaded', reason: 'unlocked' },
    { kind: 'read', at, key, token, value, stored: true },
  ];
}

export function save(
  key: string,
  token: string,
  value: number,
  startedAt: number,
  at: number,
): Body {
  return { kind: 'save', startedAt, at, key, token, value };
}

export function final(key: string, value: number | null, at = 100_000): HistoryLine {
  return { kind: 'final', at, key, value };
}
