/**
 * The platform's tenant administration (`npm run tenant`, docs/tenants.md): bodies of the calls the
 * command line makes to a running server. The files themselves are checked by the server with the
 * institution file's schema and the runtime's format schema, which name each problem's path.
 */
import * as z from 'zod/mini';

const tenantId = z.string().check(z.minLength(1), z.maxLength(40));

export const tenantAddBody = z.strictObject({
  id: tenantId,
  hosts: z.array(z.string().check(z.minLength(1), z.maxLength(253))).check(z.maxLength(20)),
  institution: z.unknown(),
  definition: z.unknown(),
});

export const tenantPublishBody = z.strictObject({
  definition: z.unknown(),
  /** Publish although keys that hold saved answers are renamed or dropped (D194). */
  dropKeys: z.optional(z.boolean()),
  /** Check everything a publish checks, and publish nothing. */
  dryRun: z.optional(z.boolean()),
});

/** A publish's answer: the version, whether the file equalled the latest one, keys it dropped. */
export const tenantPublishResponse = z.object({
  version: z.number(),
  unchanged: z.boolean(),
  dropped: z.array(z.string()),
});

/** `export?version=N`: that version of the form rather than the latest. */
export const tenantExportQuery = z.strictObject({
  version: z.optional(z.string().check(z.regex(/^[1-9]\d{0,8}$/, 'version: a version number'))),
});

export const tenantInstitutionBody = z.strictObject({ institution: z.unknown() });

export const tenantParams = z.strictObject({ id: tenantId });

/** The JSON limits of these calls: a whole definition (about 60 kB for the embedded default). */
export const TENANT_FILE_LIMITS = { bytes: 2 * 1024 * 1024, depth: 40, members: 5000 } as const;
