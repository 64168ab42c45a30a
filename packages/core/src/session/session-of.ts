import { backingOf, type Profile } from './profile.js';
import { ProfileSession } from './profile-session.js';

/** The session behind a profile of this package; `undefined` for any other object. */
export function sessionOf(profile: Profile<object>): ProfileSession | undefined {
  const backing = backingOf(profile);
  return backing instanceof ProfileSession ? backing : undefined;
}
