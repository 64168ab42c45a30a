export {
  ColyseusHost,
  type ColyseusHostOptions,
  type ColyseusPlayer,
} from './colyseus-host.js';
export { ColyseusProfiles, type ColyseusProfilesOptions } from './colyseus-profiles.js';
export { AUTH_FAILED_CODE, ColyseusJoinError, closeReason, KICK_CLOSE_CODE } from './kick.js';
export { type UserIdOf, userIdFromAuth } from './user-id.js';
