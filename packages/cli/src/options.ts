/** The global options every command takes, as commander parses them, and what they build. */
import { hostname } from 'node:os';
import { DataDriver } from '@datadriver/core';
import type { VersionRetention } from '@datadriver/core/ports';
import { DEFAULT_TIMINGS, DEFAULTS } from '@datadriver/core/rules';
import { type BackendOptions, type Backends, connectBackends } from './backends.js';
import type { CliIo } from './io.js';
import type { Watch } from './liveness.js';
import { quietLogger } from './quiet-logger.js';
import { parseCount, parseSeconds } from './time-input.js';

/** The global options, as text, exactly as commander hands them over. */
export interface GlobalOptions extends Omit<BackendOptions, 'versions'> {
  readonly json?: boolean;
  readonly presenceTtl?: string;
  readonly lockTtl?: string;
  readonly lockSkew?: string;
  readonly lockWait?: string;
  readonly versionsKeep?: string;
  readonly versionsMaxAge?: string;
  readonly jobId?: string;
}

/** What a command runs with: the backends, the clock, the rules' times, the CLI's jobId. */
export interface CommandContext {
  readonly io: CliIo;
  readonly backends: Backends;
  readonly json: boolean;
  readonly now: () => number;
  readonly watch: Watch;
  readonly lockTtlSeconds: number;
  readonly lockSkewSeconds: number;
  readonly lockWaitSeconds: number;
  /** The server id the CLI writes its locks under and receives hand-over replies at. */
  readonly jobId: string;
  /** A driver of `name` that only reads (no handoff, never loads). */
  readDriver(name: string): DataDriver<object>;
}

export async function commandContext(io: CliIo, options: GlobalOptions): Promise<CommandContext> {
  const seconds = (text: string | undefined, option: string, fallback: number) =>
    text === undefined ? fallback : parseSeconds(text, option);
  const presenceTtlSeconds = seconds(
    options.presenceTtl,
    '--presence-ttl',
    DEFAULT_TIMINGS.presenceTtlSeconds,
  );
  const lockTtlSeconds = seconds(options.lockTtl, '--lock-ttl', DEFAULTS.lockTtlSeconds);
  const lockSkewSeconds = seconds(options.lockSkew, '--lock-skew', DEFAULTS.lockSkewSeconds);
  const lockWaitSeconds = seconds(options.lockWait, '--lock-wait', DEFAULTS.lockWaitSeconds);
  const backends = await connectBackends(backendOptions(options));
  const now = io.now ?? (() => Date.now());
  const json = options.json === true;
  return {
    io,
    backends,
    json,
    now,
    watch: {
      presenceTtlMs: presenceTtlSeconds * 1000,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      note: (text) => io.stderr(text),
    },
    lockTtlSeconds,
    lockSkewSeconds,
    lockWaitSeconds,
    jobId:
      options.jobId ?? `datadriver-cli-${hostname()}-${globalThis.crypto.randomUUID().slice(0, 8)}`,
    readDriver: (name) =>
      new DataDriver({
        name,
        defaults: {},
        store: backends.store,
        handoff: false,
        logger: quietLogger,
      }),
  };
}

function backendOptions(options: GlobalOptions): BackendOptions {
  const {
    json,
    presenceTtl,
    lockTtl,
    lockSkew,
    lockWait,
    versionsKeep,
    versionsMaxAge,
    jobId,
    ...backend
  } = options;
  const versions: VersionRetention = {
    ...(versionsKeep === undefined ? {} : { keep: parseCount(versionsKeep, '--versions-keep', 1) }),
    ...(versionsMaxAge === undefined
      ? {}
      : { maxAgeSeconds: parseSeconds(versionsMaxAge, '--versions-max-age') }),
  };
  return { ...backend, versions };
}
