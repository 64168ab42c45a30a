/**
 * Every failure DataDriver reports is a `DataDriverError` with a stable `code`.
 * Codes are part of the public API: match on `error.code`, never on the message.
 */
export const ErrorCode = {
  /** Another server (or another session on this one) holds the session lock. */
  Locked: 'Data.Locked',
  /** A save found the lock gone: another server took it. The profile is deactivated. */
  LockLost: 'Data.LockLost',
  /** The store, messenger or presence backend failed; nothing is known to be written. */
  BackendFailed: 'Data.BackendFailed',
  /** The backend could not be reached (connection refused, closed, timed out). */
  Unavailable: 'Data.Unavailable',
  /** The backend refused for lack of capacity after retries (throttling). */
  Throttled: 'Data.Throttled',
  /** A conditional write kept conflicting with concurrent writers past its retry budget. */
  Conflict: 'Data.Conflict',
  /** A record is larger than the backend accepts; nothing was written. */
  TooLarge: 'Data.TooLarge',
  /** The backend is not set up (missing table, bad credentials or endpoint). */
  Misconfigured: 'Data.Misconfigured',
  /**
   * A profile's data holds a value that JSON would change, drop or refuse (a Date, a Map, NaN,
   * undefined, a BigInt, a cycle, nesting past 64 levels); the message names its path. Nothing
   * was written.
   */
  InvalidData: 'Data.InvalidData',
  /** The stored value under a key is not a DataDriver record; it is left untouched. */
  InvalidRecord: 'Data.InvalidRecord',
  /** The stored record was written by a newer schema than this server knows. */
  NewerSchema: 'Data.NewerSchema',
  /** The driver or handoff options are invalid. */
  InvalidConfig: 'Data.InvalidConfig',
  /** A call was given an argument it cannot use. */
  InvalidArgument: 'Data.InvalidArgument',
  /** The profile is no longer active (released or lost); it cannot be saved or traded. */
  Inactive: 'Data.Inactive',
  /** The driver is closed. */
  Closed: 'Data.Closed',
  /** A trade did not apply; neither profile changed. */
  TradeFailed: 'Data.TradeFailed',
  /** No version old enough is retained for a restore. */
  VersionNotFound: 'Data.VersionNotFound',
  /**
   * The caller aborted the load (its `signal`): it took no lock, or gave back one whose take
   * was already on its way. Nothing else was written.
   */
  Aborted: 'Data.Aborted',
  /**
   * A save hook (`beforeSave`, `beforeRelease`) threw or returned a promise: the data is as
   * before the hook, and a save is refused with nothing written (a release goes on, warned).
   */
  HookFailed: 'Data.HookFailed',
  /** An operation did not finish within its deadline. */
  Timeout: 'Data.Timeout',
  /**
   * A profile's inbox holds its most pending messages, or the message would take it past its
   * bytes; nothing was written. The holder drains it as it applies messages: send again later.
   */
  InboxFull: 'Data.InboxFull',
  /** A profile's outbox holds its most undelivered transfers; nothing was changed. */
  OutboxFull: 'Data.OutboxFull',
  /**
   * The game's `onMessage` threw (or broke the data) on a message: the message stays pending,
   * the data is as before it, and it is tried again at the holder's next autosave.
   */
  MessageFailed: 'Data.MessageFailed',
  /**
   * A message cannot be told received or not: its id is not in the recipient's receipt window,
   * which has forgotten messages as recent as this one. Nothing was written: a send rejects,
   * and a transfer is kept in its sender's outbox, never delivered twice, for an operator.
   */
  DeliveryUncertain: 'Data.DeliveryUncertain',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const marker = Symbol.for('datadriver.error');

export interface DataDriverErrorOptions {
  cause?: unknown;
  /** Facts about the failure for logs and handlers, for example the lock holder. */
  details?: Readonly<Record<string, unknown>>;
}

export class DataDriverError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly [marker] = true;

  constructor(code: ErrorCode, message: string, options: DataDriverErrorOptions = {}) {
    super(`${code}: ${message}`, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'DataDriverError';
    this.code = code;
    this.details = options.details ?? {};
  }

  /** True for a DataDriverError from any copy of this package (duplicate installs included). */
  static isInstance(error: unknown): error is DataDriverError {
    return isMarked(error);
  }

  /** True when `error` is a DataDriverError with this code. */
  static is(error: unknown, code: ErrorCode): error is DataDriverError {
    return isMarked(error) && error.code === code;
  }
}

// Outside the class: a class body that names its own class is renamed by the bundler
// (`_DataDriverError`), and the name is what an uncaught error prints.
function isMarked(error: unknown): error is DataDriverError {
  return typeof error === 'object' && error !== null && marker in error;
}

/** Wraps an unknown failure from a port, keeping a DataDriverError as it is. */
export function toDataDriverError(
  error: unknown,
  code: ErrorCode,
  message: string,
): DataDriverError {
  if (DataDriverError.isInstance(error)) return error;
  return new DataDriverError(code, `${message}: ${describeError(error)}`, { cause: error });
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** `items` named in a message: the first `max`, then how many more (`p1, p2 and 3 more`). */
export function nameSome(items: readonly string[], max: number): string {
  const named = items.slice(0, max).join(', ');
  return items.length > max ? `${named} and ${items.length - max} more` : named;
}

/** Throws `error` as it is: the failure handler of a step that passes failures on unchanged. */
export function rethrow(error: unknown): never {
  throw error;
}
