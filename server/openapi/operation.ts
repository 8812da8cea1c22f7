/**
 * What a line of the route table says (D140): its own file, so the table (`./operations.ts`) and
 * the parts it gathers (`./platformOperations.ts`, …) import it without importing each other (D204).
 */
import type { $ZodType } from 'zod/v4/core';

export type Security = 'session' | 'staffSession' | 'staffKey' | 'metricsToken' | 'serviceToken';
export type Tag =
  'accounts' | 'application' | 'documents' | 'lookup' | 'service' | 'staff' | 'operations';
/** A response's body: a schema's JSON, or a file. */
export type Content = $ZodType | 'pdf' | 'csv' | 'zip' | 'prometheus';

export interface Operation {
  readonly method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** OpenAPI's form: `{param}`. */
  readonly path: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly security?: Security;
  readonly params?: $ZodType;
  readonly query?: $ZodType;
  /** A JSON body, or a multipart form (the presigned upload). */
  readonly body?: $ZodType | 'multipart';
  readonly status: number;
  readonly response?: Content;
}
