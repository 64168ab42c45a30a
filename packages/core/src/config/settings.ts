/**
 * The driver's options, checked once at construction: bad config fails early and clearly
 * (`Data.InvalidConfig` naming the option), and what the driver runs on is derived once.
 */

import { Handoff } from '../handoff/handoff.js';
import { Signer } from '../handoff/signing.js';
import { type HandoffTimings, resolveTimings } from '../handoff/timings.js';
import { describeError, ErrorCode, toDataDriverError } from '../ports/errors.js';
import { isPlainObject, type JsonObject, jsonClone } from '../ports/json.js';
import { checkMaxRecordBytes } from '../ports/store-checks.js';
import {
  checkFlag,
  checkImplements,
  checkKnownKeys,
  checkOptionObject,
  checkSeconds,
  describeValue,
  invalidConfig,
} from '../rules/config-checks.js';
import { type DataSchema, isDataSchema, judge } from '../rules/data-schema.js';
import { type AnyMessageHandler, messageHandler, type SaveHooks, saveHooks } from './callbacks.js';

export type { AnyMessageHandler };

import { DEFAULT_HEALTH_RULE, type HealthRule } from '../rules/health.js';
import { describeJsonProblem, findJsonProblem } from '../rules/json-problems.js';
import { isDriverName, isWellFormedText, tooLong } from '../rules/keys.js';
import { resolveMessageLimits } from '../rules/message-budget.js';
import { checkMigrations, type Migration } from '../rules/migrations.js';
import {
  type DataDriverOptions,
  DEFAULT_KICK_MESSAGES,
  DEFAULTS,
  defaultLockWaitSeconds,
  type KickMessages,
} from './options.js';

export interface Settings {
  readonly name: string;
  readonly defaults: JsonObject;
  readonly lockWaitMs: number;
  readonly localHandoffMs: number | undefined;
  readonly lockTtlSeconds: number;
  readonly lockSkewSeconds: number;
  readonly autosaveMs: number;
  readonly timings: HandoffTimings;
  readonly kickMessages: KickMessages;
  readonly migrations: readonly Migration[];
  readonly schema: DataSchema | undefined;
  /** The driver's `onMessage`, checked to be a function. */
  readonly onMessage: AnyMessageHandler | undefined;
  /** When `driver.health` turns critical. */
  readonly health: HealthRule;
  /** `beforeSave`, `beforeRelease`, `afterSave`, checked to be functions. */
  readonly saveHooks: SaveHooks;
  /** Ask for a lock hand-over when joining, and honour one when releasing. */
  readonly handOverLocks: boolean;
}

/** Every option a driver takes: anything else is refused (most often a typo). */
const OPTIONS: Record<keyof DataDriverOptions<object>, true> = {
  name: true,
  defaults: true,
  store: true,
  messenger: true,
  presence: true,
  scheduler: true,
  logger: true,
  jobId: true,
  handoff: true,
  handoffSigning: true,
  handoffLimits: true,
  handOverLocks: true,
  lockWaitSeconds: true,
  localHandoffSeconds: true,
  lockTtlSeconds: true,
  lockSkewSeconds: true,
  autosaveSeconds: true,
  timings: true,
  kickMessages: true,
  migrations: true,
  schema: true,
  createId: true,
  onMessage: true,
  health: true,
  beforeSave: true,
  beforeRelease: true,
  afterSave: true,
};

export function resolveSettings<T extends object>(options: DataDriverOptions<T>): Settings {
  checkOptionObject(options, 'the options', 'an object');
  if (options === undefined) throw invalidConfig('a DataDriver needs its options');
  checkKnownKeys(options, Object.keys(OPTIONS));
  checkPorts(options);
  const { name } = options;
  if (!isDriverName(name)) {
    throw invalidConfig(
      `name must be a non-empty string of well-formed UTF-16 without "/" or "#", got ${describeValue(name)}`,
    );
  }
  if (options.jobId !== undefined && !isWellFormedText(options.jobId)) {
    throw invalidConfig(
      `jobId must be a non-empty string of well-formed UTF-16 (no lone surrogates), got ${describeValue(options.jobId)}`,
    );
  }
  for (const [what, text] of [
    ['name', name],
    ['jobId', options.jobId],
  ] as const) {
    const long = text === undefined ? undefined : tooLong(text);
    if (long) throw invalidConfig(`${what} ${long} (MAX_NAME_BYTES)`);
  }
  if (!isPlainObject(options.defaults)) {
    throw invalidConfig(`defaults must be a plain object, got ${describeValue(options.defaults)}`);
  }
  const problem = findJsonProblem(options.defaults, 'defaults');
  if (problem) throw invalidConfig(`defaults cannot be saved: ${describeJsonProblem(problem)}`);
  const lockTtlSeconds = checkSeconds(
    'lockTtlSeconds',
    options.lockTtlSeconds,
    DEFAULTS.lockTtlSeconds,
    true,
  );
  const autosaveSeconds = checkSeconds(
    'autosaveSeconds',
    options.autosaveSeconds,
    DEFAULTS.autosaveSeconds,
    true,
  );
  if (autosaveSeconds > lockTtlSeconds / 2) {
    throw invalidConfig(
      'autosaveSeconds must be at most half of lockTtlSeconds, so a live lock never ages out',
    );
  }
  const timings = driverTimings(options.timings);
  // The TTL the beats are written with: the given handoff's, or the driver's own timings'.
  const given = Handoff.isInstance(options.handoff) ? options.handoff : undefined;
  const presenceTtlSeconds = given?.timings.presenceTtlSeconds ?? timings.presenceTtlSeconds;
  const lockWaitFallback = defaultLockWaitSeconds(options.presence, presenceTtlSeconds);
  const local = options.localHandoffSeconds;
  const defaults = jsonClone(options.defaults as unknown as JsonObject);
  return {
    name,
    defaults,
    lockWaitMs: checkSeconds('lockWaitSeconds', options.lockWaitSeconds, lockWaitFallback) * 1000,
    localHandoffMs:
      local === undefined ? undefined : checkSeconds('localHandoffSeconds', local, 0) * 1000,
    lockTtlSeconds,
    lockSkewSeconds: checkSeconds(
      'lockSkewSeconds',
      options.lockSkewSeconds,
      DEFAULTS.lockSkewSeconds,
    ),
    autosaveMs: autosaveSeconds * 1000,
    timings,
    kickMessages: kickMessages(options.kickMessages),
    migrations: migrations(options.migrations),
    schema: schema(options.schema, defaults),
    onMessage: messageHandler(options.onMessage),
    health: healthRule(options.health),
    saveHooks: saveHooks(options as DataDriverOptions<object>),
    handOverLocks: checkFlag('handOverLocks', options.handOverLocks),
  };
}

function healthRule(given: unknown): HealthRule {
  checkOptionObject(given, 'health', 'an object ({ failures, windowSeconds })');
  if (given === undefined) return DEFAULT_HEALTH_RULE;
  checkKnownKeys(given, ['failures', 'windowSeconds'], 'health.');
  const { failures = DEFAULT_HEALTH_RULE.failures, windowSeconds } = given as {
    failures?: unknown;
    windowSeconds?: number;
  };
  if (!Number.isSafeInteger(failures) || (failures as number) < 1) {
    throw invalidConfig(
      `health.failures must be a positive integer, got ${describeValue(failures)}`,
    );
  }
  const windowMs =
    checkSeconds('health.windowSeconds', windowSeconds, DEFAULT_HEALTH_RULE.windowMs / 1000, true) *
    1000;
  return { failures: failures as number, windowMs };
}

/** The ports and the other objects an option holds: each of its kind, or refused. */
function checkPorts(options: DataDriverOptions<object>): void {
  if (options.store === undefined) throw invalidConfig('store is required');
  checkImplements(options.store, 'store', ['update', 'get']);
  checkPort('store', options.store, 'v2');
  if (options.store.maxRecordBytes !== undefined) {
    checkMaxRecordBytes(options.store.maxRecordBytes);
  }
  checkImplements(options.messenger, 'messenger', ['publish', 'subscribe']);
  checkPort('messenger', options.messenger);
  checkImplements(options.presence, 'presence', ['set', 'get']);
  checkPort('presence', options.presence);
  checkImplements(options.scheduler, 'scheduler', ['now', 'schedule', 'repeat']);
  checkImplements(options.logger, 'logger', ['debug', 'info', 'warn', 'error']);
  const { handoff } = options;
  if (handoff !== undefined && typeof handoff !== 'boolean' && !Handoff.isInstance(handoff)) {
    throw invalidConfig(
      `handoff must be true (the default rule), false (off) or a Handoff, got ${describeValue(handoff)}`,
    );
  }
  checkHandoffOptions(options);
  if (options.createId !== undefined && typeof options.createId !== 'function') {
    throw invalidConfig(`createId must be a function, got ${describeValue(options.createId)}`);
  }
}

/** The default handoff's options, checked now rather than at attach. */
function checkHandoffOptions(options: DataDriverOptions<object>): void {
  const { handoffSigning, handoffLimits } = options;
  checkOptionObject(handoffSigning, 'handoffSigning', 'an object ({ key, acceptUnsigned? })');
  checkOptionObject(handoffLimits, 'handoffLimits', 'an object of message limits');
  try {
    if (handoffSigning) {
      checkKnownKeys(handoffSigning, ['key', 'acceptUnsigned'], 'handoffSigning.');
      new Signer(handoffSigning);
    }
    resolveMessageLimits(handoffLimits, 'handoffLimits');
  } catch (error) {
    throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid handoff options');
  }
}

function checkPort(
  name: string,
  port: { specificationVersion?: unknown } | undefined,
  needs = 'v1',
): void {
  if (port !== undefined && port.specificationVersion !== needs) {
    throw invalidConfig(
      `${name} implements port version ${String(port.specificationVersion)}; this core needs ${needs}`,
    );
  }
}

function driverTimings(given: unknown): HandoffTimings {
  checkOptionObject(given, 'timings', 'an object of handoff timings');
  try {
    return resolveTimings(given as Partial<HandoffTimings> | undefined);
  } catch (error) {
    throw toDataDriverError(error, ErrorCode.InvalidConfig, 'invalid timings');
  }
}

function kickMessages(given: unknown): KickMessages {
  checkOptionObject(given, 'kickMessages', 'an object of kick messages');
  if (given === undefined) return DEFAULT_KICK_MESSAGES;
  checkKnownKeys(given, Object.keys(DEFAULT_KICK_MESSAGES), 'kickMessages.');
  for (const [key, message] of Object.entries(given)) {
    if (message !== undefined && typeof message !== 'string') {
      throw invalidConfig(`kickMessages.${key} must be a string, got ${describeValue(message)}`);
    }
  }
  const set = Object.entries(given).filter(([, message]) => message !== undefined);
  return { ...DEFAULT_KICK_MESSAGES, ...(Object.fromEntries(set) as Partial<KickMessages>) };
}

function migrations(given: unknown): readonly Migration[] {
  if (given !== undefined && !Array.isArray(given)) {
    throw invalidConfig(`migrations must be an array of steps, got ${describeValue(given)}`);
  }
  return checkMigrations(given);
}

/** The schema, or refused; a synchronous schema must pass the defaults now, not at a first load. */
function schema(given: unknown, defaults: JsonObject): DataSchema | undefined {
  if (given === undefined) return undefined;
  if (!isDataSchema(given)) {
    throw invalidConfig(
      `schema must implement Standard Schema v1 (zod, valibot, arktype...), got ${describeValue(given)}`,
    );
  }
  let verdict: ReturnType<typeof judge>;
  try {
    verdict = judge(given, 'defaults', jsonClone(defaults));
  } catch (error) {
    throw invalidConfig(
      `the schema threw while checking the defaults: ${describeError((error as Error).cause ?? error)}`,
    );
  }
  if (Array.isArray(verdict)) {
    throw invalidConfig(`defaults do not match the schema at ${verdict.join(', ')}`);
  }
  // An asynchronous schema checks the defaults at each new profile's load instead.
  if (verdict instanceof Promise) verdict.catch(() => undefined);
  return given;
}
