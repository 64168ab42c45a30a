import { messengerConformance } from '@datadriver/testkit';
import { messengerHarness } from './support/harnesses.js';

messengerConformance('PostgreSQL LISTEN/NOTIFY', messengerHarness());
