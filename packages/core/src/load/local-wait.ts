/**
 * The same-server half of a load, acting on `decideSameServer`: wait, event-driven (woken by
 * each change in the registry), adopt a retained profile, or reserve the key.
 */
import type { DriverContext } from '../context/context.js';
import { DataDriverError, ErrorCode } from '../ports/errors.js';
import type { HostPlayer } from '../ports/host.js';
import type { SessionRegistry } from '../registry/registry.js';
import type { WaitReason } from '../rules/index.js';
import { decideSameServer } from '../rules/same-server.js';
import type { ProfileSession } from '../session/profile-session.js';

/** What a load brings to its wait on this server. */
export interface LocalWaitHow {
  /** How long this load waits for a load or leave save of the same key on this server. */
  readonly localWaitMs: number;
  /** The player the profile is loaded for (attach), if any. */
  readonly player?: HostPlayer;
}

/**
 * Resolves the adopted session, or `undefined` when the load should go to the store; then it
 * has called `reserve` in the same tick as it found the key free, so no other load slips in.
 */
export async function waitOnThisServer(
  context: DriverContext,
  registry: SessionRegistry,
  key: string,
  how: LocalWaitHow,
  loadId: number,
  reserve: () => void,
  /** Ends an older connection's session of the same player (the newer one wins). */
  replace: (session: ProfileSession) => void,
): Promise<ProfileSession | undefined> {
  const { scheduler } = context;
  const deadline = scheduler.now() + how.localWaitMs;
  let reported = false;
  for (;;) {
    const session = registry.session(key);
    const decision = decideSameServer({
      loading: registry.reservation(key) !== undefined,
      ...(session
        ? {
            session: {
              state: session.state,
              writing: session.writing,
              traded: session.trade !== undefined,
              otherPlayer:
                how.player !== undefined &&
                session.player !== undefined &&
                session.player !== how.player,
            },
          }
        : {}),
      remainingMs: deadline - scheduler.now(),
    });
    switch (decision.kind) {
      case 'reserve':
        reserve();
        return undefined;
      case 'adopt': {
        const adopted = session!;
        const outcome = await adopted.adopt(how.player);
        context.emit({ type: 'profile.adopted', key, outcome });
        if (outcome !== 'lost') return adopted;
        break; // deactivated: load the record normally
      }
      case 'give-up':
        throw lockedHere(context, key, decision.reason);
      case 'replace':
        replace(session!);
        break; // then wait for its leave save
      case 'wait':
        if (!reported) context.emit({ type: 'load.waiting', key, loadId, reason: decision.reason });
        reported = true;
        await registry.waitForChange(scheduler, deadline - scheduler.now());
    }
  }
}

function lockedHere(context: DriverContext, key: string, reason: WaitReason): DataDriverError {
  const what = reason.replace('local-', '');
  return new DataDriverError(
    ErrorCode.Locked,
    `profile is locked by this server (key ${key}, server ${context.identity.jobId}, ${what} in progress)`,
    { details: { key, reason } },
  );
}
