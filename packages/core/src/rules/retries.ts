/**
 * Which failures end a write's retries. A load retries a failing store until `lockWaitSeconds`
 * and a trade's decision until it lands; but a refusal by the write's own transform is thrown
 * at once (the transform is pure: it would refuse the same record again), and so is a record
 * the store itself reports as not a DataDriver record.
 */
import { DataDriverError, ErrorCode } from '../ports/errors.js';

export function endsRetries(error: unknown, thrownByTransform: boolean): boolean {
  return thrownByTransform || DataDriverError.is(error, ErrorCode.InvalidRecord);
}
