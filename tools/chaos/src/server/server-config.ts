import { type HandoffTimings, scaleTimings } from '@datadriver/core';

/** The driver every chaos server runs; the runner reads its records under this name. */
export const DRIVER_NAME = 'ChaosPlayer';

/** What the runner tells a chaos server process (as JSON in its first argument). */
export type StoreAddress =
  | { readonly kind: 'redis'; readonly url: string }
  | { readonly kind: 'dynamodb'; readonly endpoint: string; readonly table: string };

/** The driver's waits and the save loop's pace, as every server of a stack runs them. */
export interface ServerTimings {
  /** The handoff's constants times this (1: the library's defaults). */
  readonly scale: number;
  readonly lockWaitSeconds: number;
  readonly localHandoffSeconds: number;
  readonly lockTtlSeconds: number;
  readonly lockSkewSeconds: number;
  readonly autosaveSeconds: number;
  /** Pause between one acknowledged (or failed) save of a profile and its next. */
  readonly saveIntervalMs: number;
}

/** The handoff's clock constants a server runs with: the library's defaults, scaled. */
export function handoffTimingsOf(timings: Pick<ServerTimings, 'scale'>): HandoffTimings {
  return scaleTimings(timings.scale);
}

export interface ChaosServerConfig extends ServerTimings {
  readonly jobId: string;
  /** How many times this job id was started before: its history file is its own. */
  readonly incarnation: number;
  readonly historyDir: string;
  /** Through this server's own TCP proxy, so the nemesis can cut it alone. */
  readonly store: StoreAddress;
  /** Redis for messages and presence, through this server's second proxy. */
  readonly busUrl: string;
}

/** Runner to server, over the IPC channel: a player connects or disconnects. */
export type ServerCommand =
  | { readonly type: 'join'; readonly player: string }
  | { readonly type: 'leave'; readonly player: string };

/** Server to runner: it is connected and attached, and takes players. */
export interface ServerReady {
  readonly type: 'ready';
}

export function historyFileOf(
  config: Pick<ChaosServerConfig, 'historyDir' | 'jobId' | 'incarnation'>,
): string {
  return `${config.historyDir}/${config.jobId}.${config.incarnation}.jsonl`;
}
