/**
 * The same-server half of a load, acting on `decideSameServer`: wait, event-driven (woken by
 * each change in the registry), adopt a retained profile, or reserve the key.
 */
import type { DriverContext } from '../context/context.js';
import type { HostPlayer } from '../ports/host.js';
import type { SessionRegistry } from '../registry/registry.js';
import { decideSameServer, type SameServerDecision } from '../rules/same-server.js';
import type { ProfileSession } from '../session/profile-session.js';
import { lockedHere } from './locked-errors.js';

/** What a load brings to its wait on this server. */
export interface LocalWaitHow {
  /** How long this load waits for a load or leave save of the same key on this server. */
  readonly localWaitMs: number;
  /** The player the profile is loaded for (attach), if any. */
  readonly player?: HostPlayer;
}

/** What the wait does for its load: reserve the key, or end an older connection's session. */
export interface LocalWaitSteps {
  /** The key is free here: the load holds it from now on. */
  reserve(): void;
  /** Ends an older connection's session of the same player (the newer one wins). */
  replace(session: ProfileSession): void;
}

/**
 * `undefined` when the key was free here: reserved at once, in this turn, and the load goes to
 * the store (the common case, which makes no promise). Otherwise the wait: it resolves the
 * adopted session, or `undefined` once it reserved the key, in the same tick as it found the
 * key free, so no other load slips in.
 */
export function waitOnThisServer(
  context: DriverContext,
  registry: SessionRegistry,
  key: string,
  how: LocalWaitHow,
  loadId: number,
  load: LocalWaitSteps,
  /** When the load started: the wait's deadline runs from it. */
  started: number,
): Promise<ProfileSession | undefined> | undefined {
  const deadline = started + how.localWaitMs;
  const first = decideHere(registry, key, how, how.localWaitMs); // no time has passed
  if (first.kind === 'reserve') {
    load.reserve();
    return undefined;
  }
  // The wait, made only when the key is not free here.
  return (async () => {
    let reported = false;
    let decision: SameServerDecision | undefined = first;
    for (;;) {
      decision ??= decideHere(registry, key, how, deadline - context.scheduler.now());
      const session = registry.session(key);
      switch (decision.kind) {
        case 'reserve':
          load.reserve();
          return undefined;
        case 'adopt': {
          const adopted = session!;
          const outcome = await adopted.adopt(how.player);
          context.emit({ type: 'profile.adopted', key, outcome });
          if (outcome !== 'lost') return adopted;
          break; // deactivated: load the record normally
        }
        case 'give-up':
          throw lockedHere(key, context.identity.jobId, decision.reason);
        case 'replace':
          load.replace(session!);
          break; // then wait for its leave save
        case 'wait':
          if (!reported) {
            context.emit({ type: 'load.waiting', key, loadId, reason: decision.reason });
          }
          reported = true;
          await registry.waitForChange(context.scheduler, deadline - context.scheduler.now());
      }
      decision = undefined;
    }
  })();
}

/** The same-server rules (`decideSameServer`) on the key's state here now. */
function decideHere(
  registry: SessionRegistry,
  key: string,
  how: LocalWaitHow,
  remainingMs: number,
): SameServerDecision {
  const session = registry.session(key);
  return decideSameServer({
    loading: registry.reservation(key) !== undefined,
    // `undefined` rather than a spread of `{}`: that made an object on every load.
    session: session && {
      state: session.state,
      writing: session.writing,
      traded: session.trade !== undefined,
      otherPlayer:
        how.player !== undefined && session.player !== undefined && session.player !== how.player,
    },
    remainingMs,
  });
}
