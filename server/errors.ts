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

/** PostgreSQL's foreign-key violation, as its driver reports it (`code` on the error or its cause). */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * A write naming an applicant's account that was deleted meanwhile (D164): a save racing "Delete
 * my account" finds its `users` row gone. The session it came with is gone too; not a fault.
 */
export function isDeletedAccountWrite(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (
      code === FOREIGN_KEY_VIOLATION &&
      typeof constraint === 'string' &&
      constraint.endsWith('_user_id_users_id_fk')
    )
      return true;
  }
  return false;
}
