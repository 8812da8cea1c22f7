-- The applicant's rights and retention (D152, D153). "deletion_requests": a submitted application's
-- owner asked for the account's deletion, which an admin completes (the institution may have to
-- keep it). "object_deletions": stored objects of deleted rows whose removal from storage is still
-- to be done; each is written in the transaction that deletes the rows, so a failed delete is found
-- and tried again by the retention sweep. "users.retention_reminded_at": when the reminder before an
-- unsubmitted application's deletion was sent (once). Tenant tables, under the policy of D56.
CREATE TABLE "deletion_requests" (
  "tenant_id" text NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "requested_at" timestamp with time zone NOT NULL,
  CONSTRAINT "deletion_requests_pk" PRIMARY KEY ("tenant_id", "user_id")
);--> statement-breakpoint
CREATE TABLE "object_deletions" (
  "tenant_id" text NOT NULL,
  "object_key" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  CONSTRAINT "object_deletions_pk" PRIMARY KEY ("tenant_id", "object_key")
);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "retention_reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deletion_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "deletion_requests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "deletion_requests" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "object_deletions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "object_deletions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "object_deletions" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
