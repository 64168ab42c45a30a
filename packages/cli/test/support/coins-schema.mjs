// A game's schema as `restore --schema` imports it: a plain ES module, its default export zod's.
import { z } from 'zod';

export default z.object({ coins: z.number().int().nonnegative() });
