/**
 * Redis Cluster's slot of a key, computed as the server's `keyHashSlot` does, so tests on a
 * standalone redis-server (where CLUSTER KEYSLOT is disabled) can check which keys share a slot.
 * Written from the Cluster spec, apart from the adapter's own hash-tag code, to check it.
 */

/** CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The slot (0 to 16383): CRC16 of the hash tag when the key has a non-empty one, else of it all. */
export function keySlot(key: string): number {
  const bytes = Buffer.from(key, 'utf8');
  const open = bytes.indexOf('{');
  const close = open < 0 ? -1 : bytes.indexOf('}', open + 1);
  const hashed = close > open + 1 ? bytes.subarray(open + 1, close) : bytes;
  return crc16(hashed) % 16384;
}
