import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { REVISION_ATTRIBUTE, type StoredItem } from './item-codec.js';

/** The parts of a PutItem or DeleteItem request that make it conditional. */
export interface WriteCondition {
  readonly ConditionExpression: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, AttributeValue>;
}

/**
 * The condition that the item is still as it was read: absent, or at the revision read. Names
 * always go through placeholders, so any key attribute name works, reserved words included.
 */
export function unchangedSince(keyAttribute: string, read: StoredItem | undefined): WriteCondition {
  if (read === undefined) {
    return {
      ConditionExpression: 'attribute_not_exists(#key)',
      ExpressionAttributeNames: { '#key': keyAttribute },
    };
  }
  if (read.revision === undefined) {
    // An item written by hand, without a revision: the first write by the store adds one.
    return {
      ConditionExpression: 'attribute_exists(#key) AND attribute_not_exists(#revision)',
      ExpressionAttributeNames: { '#key': keyAttribute, '#revision': REVISION_ATTRIBUTE },
    };
  }
  return {
    ConditionExpression: '#revision = :revision',
    ExpressionAttributeNames: { '#revision': REVISION_ATTRIBUTE },
    ExpressionAttributeValues: { ':revision': { S: read.revision } },
  };
}
