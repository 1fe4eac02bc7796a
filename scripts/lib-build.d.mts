/** See lib-externals.mjs. */
export declare const LIB_EXTERNALS: string[];
