// A schema module whose Standard Schema is its export `schema`; `notes` is no schema.
import { z } from 'zod';

export const notes = 'the CLI takes the export named schema';
export const schema = z.object({ coins: z.number().int().nonnegative() });
