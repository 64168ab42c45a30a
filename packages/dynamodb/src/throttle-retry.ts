import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@datadriver/core';
import { backoffMs, THROTTLE_BACKOFF } from './backoff.js';
import { classifyDynamoError, type FailedCall } from './errors.js';

/**
 * Runs one DynamoDB call, retrying it with backoff while DynamoDB throttles it (on top of the
 * SDK's own `maxAttempts`). A throttled call wrote nothing, so sending it again is safe.
 * Other failures, and the last throttling, are rethrown as the SDK reported them.
 */
export async function withThrottleRetries<T>(
  call: FailedCall,
  retries: number,
  logger: Logger,
  send: () => Promise<T>,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await send();
    } catch (error) {
      if (retry >= retries || classifyDynamoError(error) !== 'throttled') throw error;
      const delayMs = backoffMs(retry, THROTTLE_BACKOFF);
      logger.warn(
        `DynamoDB throttled the ${call.operation} of ${call.key} in table ${call.tableName}; retry ${retry + 1} of ${retries} in ${delayMs} ms`,
        { ...call, retry: retry + 1, delayMs },
      );
      await sleep(delayMs);
    }
  }
}
