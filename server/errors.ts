/** An error answered to the client as `{ message, code?, errors? }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { code?: string; errors?: Record<string, string[]> } = {},
  ) {
    super(message);
  }
}
