/** The gift of the "gift sent while the player hops" case, the same in both runners. */

/** What the grant gives. */
export const GIFT_COINS = 100;

/** The player as the page names them (the runs' own user ids are read back as this). */
export const PLAYER_LABEL = 'p1';

/** The grant's receipt id: a payment's, as a webhook would send it. */
export const GIFT_RECEIPT = 'receipt-1';
