// Types for scripts/ensure-chromium.mjs (plain JS so that `node` runs it before anything is built).
export declare const SYSTEM_CHROMIUM: string;
export declare const CHROMIUM_ARGS: string[];
export declare function findChromium(): string | null;
export declare function ensureChromium(): string;
