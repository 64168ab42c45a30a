/** The published packages' folder names under packages/ (the changesets fixed group). */
export declare const PUBLISHED: readonly string[];
