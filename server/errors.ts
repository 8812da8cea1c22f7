/** An error answered to the client as `{ message, code?, errors? }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: {
      code?: string;
      errors?: Record<string, string[]>;
      conflicts?: Record<string, { mine: unknown; theirs: unknown }>;
      version?: number;
      others?: Record<string, unknown>;
      /** A refused file's problems, each with its path (tenant administration). */
      problems?: readonly string[];
    } = {},
  ) {
    super(message);
  }
}
