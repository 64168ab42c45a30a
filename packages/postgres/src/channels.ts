/**
 * Channel names. A topic holds a driver's name and a jobId, each up to 256 bytes of any text,
 * while a PostgreSQL channel is an identifier of at most 63 bytes (a longer one is silently cut,
 * so two topics could share a channel). So each topic gets one fixed channel: `dd_` and the
 * first 40 hex digits of the SHA-256 of its schema and topic. No name can break out of it, or
 * meet another's (160 bits), and the same topic gives the same channel on every server.
 */
import { createHash } from 'node:crypto';

export function channelOf(schema: string, topic: string): string {
  const digest = createHash('sha256').update(schema).update('\0').update(topic).digest('hex');
  return `dd_${digest.slice(0, 40)}`;
}
