-- Data keys by version (D167): `npm run keys -- rotate --reencrypt` gives a tenant a new data key
-- while values sealed under the old one remain, so a tenant holds one row per version until the
-- old ones are retired. The keys made before are version 1, which sealed values naming no version use.
ALTER TABLE "tenant_data_keys" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_data_keys" DROP CONSTRAINT "tenant_data_keys_pkey";--> statement-breakpoint
ALTER TABLE "tenant_data_keys" ADD CONSTRAINT "tenant_data_keys_pk" PRIMARY KEY ("tenant_id", "version");--> statement-breakpoint
ALTER TABLE "tenant_data_keys" ADD CONSTRAINT "tenant_data_keys_version_positive" CHECK ("version" >= 1);
