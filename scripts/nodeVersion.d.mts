/** Types of nodeVersion.mjs, which runs untranspiled before anything is installed. */
export declare const SUPPORTED_LINES: string;
export declare function nodeVersionVerdict(version: string): { fatal?: string; warning?: string };
export declare function requireSupportedNode(version?: string): void;
