/** For other tools (the release checks run a README program on the packed packages). */
export { type DocBlock, extractBlocks, type MarkupProblem } from './extract.js';
