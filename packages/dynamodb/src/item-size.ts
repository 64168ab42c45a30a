/** DynamoDB's limit on one item: 400 KB, counting every attribute's name and value. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** DynamoDB's limit on a partition key value. */
export const MAX_KEY_BYTES = 2048;

/**
 * The largest record JSON a DynamoStore declares (`maxRecordBytes`): the item limit less the
 * longest key and the item's other attributes. The codec still checks each item exactly.
 */
export const DYNAMO_MAX_RECORD_BYTES = MAX_ITEM_BYTES - MAX_KEY_BYTES - 256;

/**
 * The size DynamoDB counts for an item whose attributes are all strings: the UTF-8 bytes of
 * every name and every value. Exact for such items (checked against DynamoDB Local, which
 * accepts 409,600 bytes and refuses 409,601), which is why records are stored as strings.
 */
export function stringItemBytes(attributes: Readonly<Record<string, string>>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(attributes)) {
    bytes += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  return bytes;
}
