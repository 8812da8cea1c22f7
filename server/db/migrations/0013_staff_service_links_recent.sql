-- Every link of a tenant, newest first, a page at a time (D131); when a reviewer last opened one.
ALTER TABLE "staff_service_links" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "staff_service_links_recent" ON "staff_service_links" USING btree ("tenant_id","created_at","token_id");