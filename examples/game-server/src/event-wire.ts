/**
 * The driver's events as `GET /events` sends them: JSON, with an error written as its code and
 * message (an Error has no JSON form of its own), and read back as a `DataDriverError`.
 */
import { DataDriverError, type DataDriverEvent, ErrorCode } from '@datadriver/core';

interface WireError {
  readonly code: string;
  readonly message: string;
}

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

export function encodeEvent(event: DataDriverEvent): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    value instanceof Error
      ? {
          code: DataDriverError.isInstance(value) ? value.code : ErrorCode.BackendFailed,
          message: value.message,
        }
      : value,
  );
}

function isWireError(value: unknown): value is WireError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Partial<WireError>;
  return typeof code === 'string' && CODES.has(code) && typeof message === 'string';
}

/** An event `encodeEvent` wrote, its error a `DataDriverError` again. */
export function decodeEvent(json: string): DataDriverEvent {
  return JSON.parse(json, (key, value: unknown) => {
    if (key !== 'error' || !isWireError(value)) return value;
    // The message already starts with the code; the constructor adds it again.
    const message = value.message.replace(`${value.code}: `, '');
    return new DataDriverError(value.code as ErrorCode, message);
  }) as DataDriverEvent;
}
