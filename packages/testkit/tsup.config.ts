import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.js';

// The simulator's CLI is a second entry, so `pnpm simulate` runs the built dist.
export default defineConfig(packageBuild({ 'simulation/cli': 'src/simulation/cli.ts' }));
