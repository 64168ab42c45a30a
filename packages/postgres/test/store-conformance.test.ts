import { storeConformance } from '@datadriver/testkit';
import { storeHarness } from './support/harnesses.js';

/** The retention of the suite's stores, which the versions cases are told. */
const KEEP = 5;

storeConformance('PostgreSQL', storeHarness(KEEP), { versions: { keep: KEEP }, scan: true });
