-- Row-level security (SECURITY.md ASVS 8.4.1, docs/decisions/ D56): every table that holds a tenant's
-- or an applicant's rows admits only the rows of the tenant named by the setting app.tenant_id, which
-- the application sets on each pooled connection for the tenant of the request or job
-- (server/db/tenantScope.ts). No setting (or an empty one) matches no row: a query without a tenant
-- scope reads nothing and writes nothing. FORCE applies the policies to the tables' owner too; only
-- superusers and roles with BYPASSRLS pass them. Outside RLS: "tenants" (the directory read at start,
-- no applicant data) and "jobs" (claimed across tenants by the queue; payloads carry ids only).
-- A new table with a tenant_id column must get the same three statements in its migration
-- (tests/security/rls.test.ts checks that every such table has them).
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "users" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "confirmation_codes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "confirmation_codes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "confirmation_codes" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "reset_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "reset_tokens" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "reset_tokens" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "login_throttle" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "login_throttle" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "login_throttle" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "account_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "account_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "account_events" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sessions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sessions" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "applications" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "applications" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "applications" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "web_status_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "web_status_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "web_status_events" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "successful_logins" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "successful_logins" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "successful_logins" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "tmp_answers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tmp_answers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "tmp_answers" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "service_token_revocations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "service_token_revocations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "service_token_revocations" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "login_failure_streaks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "login_failure_streaks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "login_failure_streaks" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "lookup_lists" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "lookup_lists" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "lookup_lists" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "lookup_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "lookup_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "lookup_entries" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "documents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "documents" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
ALTER TABLE "application_pdfs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "application_pdfs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "application_pdfs" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
