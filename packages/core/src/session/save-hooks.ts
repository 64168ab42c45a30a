/**
 * The game's save hooks around a session's writes (`beforeSave`, `beforeRelease`,
 * `afterSave`). A before-hook that throws, or returns a promise, changes nothing: the data is
 * put back as it was before it (in place: `profile.data` keeps its identity), and the failure
 * is `Data.HookFailed`, reported as `profile.hook-failed` (a warning). An `afterSave` failure
 * is only reported: its write has landed.
 */
import type { HookTarget } from '../config/options.js';
import type { DriverContext } from '../context/context.js';
import type { ReleaseReason, SaveReason } from '../events/events.js';
import { DataDriverError, describeError, ErrorCode } from '../ports/errors.js';
import type { JsonObject } from '../ports/json.js';
import { serializeData } from '../rules/index.js';
import { replaceContents } from './replace-contents.js';

/** What a hook reads of its session. */
export interface HookedSession {
  readonly key: string;
  readonly data: JsonObject;
  readonly profile: HookTarget<JsonObject>;
}

type BeforeHook = 'beforeSave' | 'beforeRelease';

const NOT_WRITTEN = 'the data is as before it and nothing was written';
const GOES_ON = 'the data is as before it and the release goes on';
const LANDED = 'the write had landed';

/** Runs `beforeSave`; `Data.HookFailed` (already reported) when it failed, else `undefined`. */
export function beforeSave(
  context: DriverContext,
  session: HookedSession,
  reason: SaveReason,
): DataDriverError | undefined {
  const hook = context.settings.saveHooks.beforeSave;
  if (!hook) return undefined;
  const outcome = reason === 'release' ? GOES_ON : NOT_WRITTEN;
  return runBefore(context, session, 'beforeSave', outcome, () => hook(session.profile, reason));
}

/** Runs `beforeRelease`; a failure is reported, and the release goes on with the data as before. */
export function beforeRelease(
  context: DriverContext,
  session: HookedSession,
  reason: ReleaseReason,
): void {
  const hook = context.settings.saveHooks.beforeRelease;
  if (hook) {
    runBefore(context, session, 'beforeRelease', GOES_ON, () => hook(session.profile, reason));
  }
}

/** Runs `afterSave` with a copy of `json`, the data as the landed write sent it. */
export function afterSave(
  context: DriverContext,
  session: HookedSession,
  saved: {
    readonly reason: SaveReason;
    readonly json: string;
    readonly version: number | undefined;
  },
): void {
  const hook = context.settings.saveHooks.afterSave;
  if (!hook) return;
  const { reason, json, version } = saved;
  try {
    const result = hook(session.profile, { reason, data: JSON.parse(json) as JsonObject, version });
    if (isThenable(result)) {
      Promise.resolve(result).catch((error: unknown) =>
        report(context, session, 'afterSave', LANDED, error),
      );
    }
  } catch (error) {
    report(context, session, 'afterSave', LANDED, error);
  }
}

function runBefore(
  context: DriverContext,
  session: HookedSession,
  hook: BeforeHook,
  outcome: string,
  call: () => unknown,
): DataDriverError | undefined {
  // Data JSON would change cannot be put back as it was: the write refuses it anyway.
  let before: string | undefined;
  try {
    before = serializeData(session.key, session.data);
  } catch {
    before = undefined;
  }
  try {
    if (isThenable(call())) {
      throw new Error('it returned a promise: change profile.data synchronously');
    }
    return undefined;
  } catch (error) {
    if (before !== undefined) replaceContents(session.data, JSON.parse(before) as JsonObject);
    return report(context, session, hook, outcome, error);
  }
}

function report(
  context: DriverContext,
  session: HookedSession,
  hook: BeforeHook | 'afterSave',
  outcome: string,
  error: unknown,
): DataDriverError {
  const failure = new DataDriverError(
    ErrorCode.HookFailed,
    `${hook} failed for ${session.key}: ${describeError(error)}; ${outcome}`,
    { cause: error, details: { key: session.key, hook } },
  );
  context.emit({ type: 'profile.hook-failed', key: session.key, hook, error: failure });
  return failure;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
