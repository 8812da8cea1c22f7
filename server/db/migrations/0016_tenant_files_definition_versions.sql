-- Institutions as data (D145): a tenant's institution file, and its definitions as immutable
-- versions numbered without gaps per tenant. An application records the version it was submitted
-- under (NULL: not submitted yet, or submitted before versions existed, which is version 1).
ALTER TABLE "tenants" ADD COLUMN "institution" jsonb;--> statement-breakpoint
CREATE TABLE "definition_versions" (
  "tenant_id" text NOT NULL REFERENCES "tenants"("id"),
  "version" integer NOT NULL,
  "definition" jsonb NOT NULL,
  "published_at" timestamp with time zone DEFAULT now() NOT NULL,
  "published_by" text NOT NULL,
  CONSTRAINT "definition_versions_pk" PRIMARY KEY ("tenant_id", "version"),
  CONSTRAINT "definition_versions_positive" CHECK ("version" >= 1)
);--> statement-breakpoint
ALTER TABLE "definition_versions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "definition_versions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "definition_versions" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "definition_version" integer;
