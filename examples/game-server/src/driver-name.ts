/** The server's driver name: a player's record lives under `PlayerData/<user>` in the store. */
export const DRIVER_NAME = 'PlayerData';
