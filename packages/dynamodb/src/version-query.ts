/**
 * A versions query in DynamoDB's terms: the port's inclusive time bounds, narrowed by the age
 * limit, as a key condition on the versions table's sort key.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkVersionQuery, type VersionQuery } from '@datadriver/core/ports';
import { VERSION_TIME_ATTRIBUTE } from './version-codec.js';

/** Inclusive bounds in whole ms; an absent side is open. */
export interface TimeBounds {
  readonly low?: number;
  readonly high?: number;
}

/** The largest time a Date can hold; a bound past it is no bound (DynamoDB numbers end too). */
const MAX_TIME = 8.64e15;

/**
 * The bounds of `query`, no lower than `oldest` (the age limit, when set); `undefined` when no
 * version can match. Versions are stamped in whole ms, so the bounds round inwards. Rejects an
 * invalid query (core's `checkVersionQuery`).
 */
export function timeBounds(
  query: VersionQuery,
  oldest: number | undefined,
): TimeBounds | undefined {
  checkVersionQuery(query);
  const { before, after } = query;
  const high = before === undefined || before >= MAX_TIME ? undefined : Math.floor(before);
  const lows = [after, oldest].filter((bound): bound is number => bound !== undefined);
  const low = lows.length === 0 ? undefined : Math.ceil(Math.max(...lows));
  if (low !== undefined && low > MAX_TIME) return undefined;
  if (high !== undefined && high < -MAX_TIME) return undefined;
  if (low !== undefined && high !== undefined && low > high) return undefined;
  return {
    ...(low !== undefined && low > -MAX_TIME && { low }),
    ...(high !== undefined && { high }),
  };
}

/** A query's `limit`, checked (core's `checkVersionQuery`): an integer of 0 or more, or none. */
export function checkLimit(limit: number | undefined): number | undefined {
  checkVersionQuery({ limit });
  return limit;
}

/** The key condition for the versions of `key` within `bounds`. */
export function keyCondition(keyAttribute: string, key: string, bounds: TimeBounds = {}) {
  const names: Record<string, string> = { '#key': keyAttribute };
  const values: Record<string, AttributeValue> = { ':key': { S: key } };
  let range = '';
  if (bounds.low !== undefined) values[':low'] = { N: String(bounds.low) };
  if (bounds.high !== undefined) values[':high'] = { N: String(bounds.high) };
  if (bounds.low !== undefined || bounds.high !== undefined)
    names['#time'] = VERSION_TIME_ATTRIBUTE;
  if (bounds.low !== undefined && bounds.high !== undefined) {
    range = ' AND #time BETWEEN :low AND :high';
  } else if (bounds.low !== undefined) {
    range = ' AND #time >= :low';
  } else if (bounds.high !== undefined) {
    range = ' AND #time <= :high';
  }
  return {
    KeyConditionExpression: `#key = :key${range}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
