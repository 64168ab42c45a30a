import { presenceConformance } from '@datadriver/testkit';
import { presenceHarness } from './support/harnesses.js';

presenceConformance('PostgreSQL', presenceHarness(), { scan: true, getEntry: true });
