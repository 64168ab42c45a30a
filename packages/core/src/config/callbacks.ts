/**
 * The game's callbacks among the driver's options, each checked to be a function once, at
 * construction, and kept with its data type erased (the driver passes its own profiles).
 */
import type { ReleaseReason, SaveReason } from '../events/events.js';
import type { JsonObject } from '../ports/json.js';
import { describeValue, invalidConfig } from '../rules/config-checks.js';
import type { DataDriverOptions, HookTarget, ProfileMessage, SavedData } from './options.js';

/** A message handler as the driver stores it, its data type erased. */
export type AnyMessageHandler = (profile: HookTarget<object>, message: ProfileMessage) => void;

/** The save hooks as the driver stores them, their data type erased. */
export interface SaveHooks {
  readonly beforeSave?: (profile: HookTarget<JsonObject>, reason: SaveReason) => unknown;
  readonly beforeRelease?: (profile: HookTarget<JsonObject>, reason: ReleaseReason) => unknown;
  readonly afterSave?: (profile: HookTarget<JsonObject>, saved: SavedData<JsonObject>) => unknown;
}

export function messageHandler(handler: unknown): AnyMessageHandler | undefined {
  return callback('onMessage', handler) as AnyMessageHandler | undefined;
}

export function saveHooks(options: DataDriverOptions<object>): SaveHooks {
  const hooks: Record<string, unknown> = {};
  for (const name of ['beforeSave', 'beforeRelease', 'afterSave'] as const) {
    const hook = callback(name, options[name]);
    if (hook) hooks[name] = hook;
  }
  return hooks as SaveHooks;
}

function callback(name: string, given: unknown): ((...args: never[]) => unknown) | undefined {
  if (given === undefined) return undefined;
  if (typeof given !== 'function') {
    throw invalidConfig(`${name} must be a function, got ${describeValue(given)}`);
  }
  return given as (...args: never[]) => unknown;
}
