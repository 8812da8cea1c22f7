-- Sensitive answers at rest (D150): each tenant's data key, wrapped by the master key named by
-- master_key_id (the key file of DATA_DIR, MASTER_KEY or a KMS later). Only wrapped keys are
-- stored; a tenant reads its own row only, like every tenant table (D56).
CREATE TABLE "tenant_data_keys" (
  "tenant_id" text PRIMARY KEY NOT NULL REFERENCES "tenants"("id"),
  "wrapped_key" text NOT NULL,
  "master_key_id" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "tenant_data_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tenant_data_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "tenant_data_keys" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
