/**
 * Whether a server beats presence now: one read, as a joining server makes it (alive, stopped
 * or unknown). A backend that keeps the key's expiry (Redis) also tells the beat's age. One
 * that judges expiry by the reader's own sightings (DynamoDB) cannot tell a stopped server
 * from one read, so the key is watched for one presence TTL and read again. `servers` scans
 * the presence map (on Redis a SCAN of the keyspace); `inspect` reads one key.
 */
import { describeError, type Presence, type PresenceEntry } from '@datadriver/core/ports';

export type Liveness =
  | {
      readonly answer: 'alive';
      /** Since the last beat, from the backend's expiry and the presence TTL. */
      readonly beatAgeMs?: number;
      /** How long the CLI watched the key before answering. */
      readonly watchedMs?: number;
    }
  | { readonly answer: 'stopped'; readonly watchedMs?: number }
  | { readonly answer: 'unknown'; readonly error: string };

export interface Watch {
  /** The servers' presence TTL (the seed's 10 s unless their timings differ). */
  readonly presenceTtlMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Tells the person why the command waits. */
  readonly note: (text: string) => void;
}

/** A beat seen on a backend that keeps expiry: alive, with the beat's age. */
export interface Beat {
  readonly jobId: string;
  readonly beatAgeMs?: number;
  readonly expiresInMs?: number;
  readonly watchedMs?: number;
}

/**
 * How long a presence key has left on the backend's own clock, for a backend that keeps one
 * (Redis's PTTL), read for one key without scanning the keyspace.
 */
export type ExpiryReader = (key: string) => Promise<number | undefined>;

/** The presence answer for server `jobId`; without `expiryOf`, a present key is watched. */
export async function livenessOf(
  presence: Presence,
  jobId: string,
  watch: Watch,
  expiryOf: ExpiryReader | undefined,
): Promise<Liveness> {
  try {
    if ((await presence.get(jobId)) === undefined) return { answer: 'stopped' };
    if (expiryOf) {
      const expiresInMs = await expiryOf(jobId);
      return expiresInMs === undefined
        ? { answer: 'alive' }
        : { answer: 'alive', beatAgeMs: beatAge(expiresInMs, watch) };
    }
    const watchedMs = watch.presenceTtlMs + WATCH_MARGIN_MS;
    watch.note(
      `presence of ${jobId} keeps no expiry here: reading it again in ${(watchedMs / 1000).toFixed(1)} s to tell a live server from a stopped one\n`,
    );
    await watch.sleep(watchedMs);
    const again = await presence.get(jobId);
    return again === undefined ? { answer: 'stopped', watchedMs } : { answer: 'alive', watchedMs };
  } catch (error) {
    return { answer: 'unknown', error: describeError(error) };
  }
}

/** The servers beating presence now, each once, by jobId. */
export async function beatingServers(presence: Presence, watch: Watch): Promise<Beat[]> {
  const first = await scanAll(presence);
  if ([...first.values()].every((entry) => entry.expiresInMs !== undefined)) {
    return [...first.values()].map((entry) => ({
      jobId: entry.key,
      beatAgeMs: beatAge(entry.expiresInMs!, watch),
      expiresInMs: entry.expiresInMs!,
    }));
  }
  const watchedMs = watch.presenceTtlMs + WATCH_MARGIN_MS;
  watch.note(
    `presence keeps no expiry here: scanning again in ${(watchedMs / 1000).toFixed(1)} s; the servers still present then beat within that time\n`,
  );
  await watch.sleep(watchedMs);
  const second = await scanAll(presence);
  return [...second.values()].map((entry) => ({ jobId: entry.key, watchedMs }));
}

/** A little past the TTL, so the reader's own clock has surely seen a whole TTL go by. */
const WATCH_MARGIN_MS = 250;

function beatAge(expiresInMs: number, watch: Watch): number {
  return Math.max(0, watch.presenceTtlMs - expiresInMs);
}

async function scanAll(presence: Presence): Promise<Map<string, PresenceEntry>> {
  const entries = new Map<string, PresenceEntry>();
  if (!presence.scan) return entries;
  for await (const entry of presence.scan()) entries.set(entry.key, entry);
  return entries;
}
