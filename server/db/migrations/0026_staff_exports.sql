-- The CSV's columns an admin chose for the office (D168): one row per tenant, the answer keys in
-- the order of the form; no row means every column. Row-level security as every tenant table (D56).
CREATE TABLE "staff_export_columns" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"columns" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_export_columns" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_export_columns" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_export_columns" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
