/**
 * What a tenant is, as the server holds it once loaded (server/tenants.ts loads it): a type only,
 * at the bottom of the server, so the headers, the sealing at rest and the origins that take a
 * tenant import nothing of the directory that loads one (D204).
 */
import type { Definition } from '../runtime';
import type { InstitutionFile } from '../definitions/institutionFile';

/**
 * A tenant's definition at a published version: the one an application was submitted under
 * (`applications.definition_version`), the latest for a draft or an unknown version (D145).
 */
export type DefinitionAt = (version: number | null | undefined) => Definition;

export interface Tenant {
  readonly id: string;
  readonly name: string;
  /** The latest published definition. */
  readonly definition: Definition;
  /** Its version number. */
  readonly definitionVersion: number;
  /** The institution's configuration and words. */
  readonly institution: InstitutionFile;
  readonly hosts: readonly string[];
  /** Every published version's number, oldest first. */
  readonly versions: readonly number[];
  /** A published version (an application submitted under it); the latest when unknown. */
  readonly definitionAt: DefinitionAt;
}
