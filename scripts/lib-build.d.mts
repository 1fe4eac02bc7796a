/** See lib-build.mjs. */
export declare const LIB_EXTERNALS: string[];
export declare const LIB_BUILD_OPTIONS: { bundle: true; splitting: true; format: 'esm'; platform: 'node'; target: string; external: string[] };
