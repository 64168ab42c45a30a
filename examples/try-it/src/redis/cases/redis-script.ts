import type { Outcome } from '../../stream.js';
import type { RedisWorld } from '../redis-world.js';

/** How a story ended: its outcome, and when the event that decided it happened. */
export interface Played {
  readonly outcome: Outcome;
  /** The deciding event's time on its server's clock (ms since the epoch). */
  readonly at: number;
}

/** The story of a case, played on real servers once its setup is done. */
export type RedisStory = () => Promise<Played>;

/** A case on real game servers and Redis. */
export interface RedisCaseScript {
  readonly id: string;
  /** Starts the servers and brings them to where the story starts. */
  setup(world: RedisWorld): Promise<RedisStory>;
}
