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
--> statement-breakpoint
-- The filtered set's PDFs as one ZIP (D169), built by the worker: its progress, and the sealed
-- object once ready (removed by retention a day after it was finished).
CREATE TABLE "staff_pdf_bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"staff_user_id" uuid,
	"filter" jsonb NOT NULL,
	"state" text NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"object_key" text,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_pdf_bundles" ADD CONSTRAINT "staff_pdf_bundles_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_pdf_bundles_finished" ON "staff_pdf_bundles" USING btree ("tenant_id","finished_at");--> statement-breakpoint
ALTER TABLE "staff_pdf_bundles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_pdf_bundles" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_pdf_bundles" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
