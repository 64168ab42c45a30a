/**
 * The same-server rules of a load: wait, event-driven, while the key is still loading on this
 * server or a leaving profile is still saving; then adopt a retained profile whose leave save
 * failed (no save running, no trade holding it).
 */
import type { DriverContext } from '../driver/context.js';
import type { SessionRegistry } from '../driver/registry.js';
import { DataDriverError, ErrorCode } from '../errors.js';
import type { WaitReason } from '../events.js';
import type { ProfileSession } from '../session/profile-session.js';
import type { LoadHow } from './loader.js';

/**
 * Resolves the adopted session, or `undefined` when the load should go to the store; then it
 * has called `reserve` in the same tick as it found the key free, so no other load slips in.
 */
export async function waitOnThisServer(
  ctx: DriverContext,
  registry: SessionRegistry,
  key: string,
  how: Pick<LoadHow, 'localWaitMs' | 'player'>,
  reserve: () => void,
): Promise<ProfileSession | undefined> {
  const { scheduler } = ctx;
  const deadline = scheduler.now() + how.localWaitMs;
  let reported = false;
  for (;;) {
    const session = registry.session(key);
    const loading = registry.reservation(key) !== undefined;
    if (!loading && (!session || session.state === 'inactive')) {
      reserve();
      return undefined;
    }
    if (!loading && session?.state === 'retained' && !session.writing && !session.trade) {
      const outcome = await session.adopt(how.player);
      ctx.emit({ type: 'profile.adopted', key, outcome });
      if (outcome !== 'lost') return session;
      continue; // deactivated: load the record normally
    }
    const reason: WaitReason = loading
      ? 'local-load'
      : session?.state === 'leaving' || session?.state === 'retained'
        ? 'local-release'
        : 'local-session';
    const remaining = deadline - scheduler.now();
    if (remaining <= 0) throw lockedHere(ctx, key, reason);
    if (!reported) ctx.emit({ type: 'load.waiting', key, reason });
    reported = true;
    await registry.waitForChange(scheduler, remaining);
  }
}

function lockedHere(ctx: DriverContext, key: string, reason: WaitReason): DataDriverError {
  const what = reason.replace('local-', '');
  return new DataDriverError(
    ErrorCode.Locked,
    `profile is locked by this server (key ${key}, server ${ctx.identity.jobId}, ${what} in progress)`,
    { details: { key, reason } },
  );
}
