export declare const ASCII_EMBED_SOURCE: string;
export declare const ASCII_EMBED_MODULE: string;
export declare function compileAsciiEmbed(): Promise<Uint8Array>;
export declare function asciiEmbedModuleText(bytes: Uint8Array): string;
