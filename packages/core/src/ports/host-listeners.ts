/**
 * The listener plumbing every `Host` repeats: who listens for players added and removing, and
 * telling each of them. A listener that throws does not keep the others from hearing: every
 * one is called, then the first error is thrown to the host's caller.
 */
import type { HostPlayer } from './host.js';

type Listener<P> = (player: P) => void;

export class HostListeners<P extends HostPlayer> {
  readonly #added = new Set<Listener<P>>();
  readonly #removing = new Set<Listener<P>>();

  /** `Host.onPlayerAdded`. */
  onPlayerAdded(listener: Listener<P>): () => void {
    return subscribe(this.#added, listener);
  }

  /** `Host.onPlayerRemoving`. */
  onPlayerRemoving(listener: Listener<P>): () => void {
    return subscribe(this.#removing, listener);
  }

  /** A player joined: tells every `onPlayerAdded` listener. */
  added(player: P): void {
    tell(this.#added, player);
  }

  /** A player is leaving (kicked, or gone): tells every `onPlayerRemoving` listener. */
  removing(player: P): void {
    tell(this.#removing, player);
  }
}

function subscribe<P>(listeners: Set<Listener<P>>, listener: Listener<P>): () => void {
  // A wrapper per subscription: the same function subscribed twice is two subscriptions.
  const entry: Listener<P> = (player) => listener(player);
  listeners.add(entry);
  return () => listeners.delete(entry);
}

function tell<P>(listeners: Set<Listener<P>>, player: P): void {
  let failure: { error: unknown } | undefined;
  for (const listener of [...listeners]) {
    try {
      listener(player);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
