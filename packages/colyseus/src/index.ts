export type { MessageAppliedListener } from './applied-messages.js';
export {
  ColyseusHost,
  type ColyseusHostOptions,
  type ColyseusPlayer,
  type JoinedListener,
} from './colyseus-host.js';
export { ColyseusProfiles, type ColyseusProfilesOptions } from './colyseus-profiles.js';
export {
  AUTH_FAILED_CODE,
  AUTH_FAILED_MESSAGE,
  ColyseusJoinError,
  closeReason,
  KICK_CLOSE_CODE,
} from './kick.js';
export { MAX_USER_ID_BYTES, type UserIdOf, userIdFromAuth } from './user-id.js';
