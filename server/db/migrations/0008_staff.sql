CREATE TABLE "staff_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"staff_user_id" uuid,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"applicant_id" uuid,
	"detail" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_invitations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
	"tenant_id" text NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "staff_recovery_codes_tenant_id_staff_user_id_code_hash_pk" PRIMARY KEY("tenant_id","staff_user_id","code_hash")
);
--> statement-breakpoint
CREATE TABLE "staff_service_links" (
	"tenant_id" text NOT NULL,
	"token_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"staff_user_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_service_links_tenant_id_token_id_pk" PRIMARY KEY("tenant_id","token_id")
);
--> statement-breakpoint
CREATE TABLE "staff_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text,
	"totp_secret" text,
	"totp_enrolled_at" timestamp with time zone,
	"totp_last_step" bigint,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_invitations" ADD CONSTRAINT "staff_invitations_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_service_links" ADD CONSTRAINT "staff_service_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_service_links" ADD CONSTRAINT "staff_service_links_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_audit_recent" ON "staff_audit" USING btree ("tenant_id","at");--> statement-breakpoint
CREATE INDEX "staff_invitations_user" ON "staff_invitations" USING btree ("tenant_id","staff_user_id");--> statement-breakpoint
CREATE INDEX "staff_service_links_user" ON "staff_service_links" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "staff_sessions_user" ON "staff_sessions" USING btree ("tenant_id","staff_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_tenant_email" ON "staff_users" USING btree ("tenant_id","email");--> statement-breakpoint
CREATE INDEX "applications_updated" ON "applications" USING btree ("tenant_id","updated_at");--> statement-breakpoint
CREATE INDEX "applications_submitted" ON "applications" USING btree ("tenant_id","submitted_at");--> statement-breakpoint
CREATE INDEX "applications_first_name" ON "applications" USING btree ("tenant_id",lower("answers"->>'first_name') text_pattern_ops);--> statement-breakpoint
CREATE INDEX "applications_last_name" ON "applications" USING btree ("tenant_id",lower("answers"->>'last_name') text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_prefix" ON "users" USING btree ("tenant_id","email" text_pattern_ops);--> statement-breakpoint
-- Row-level security for the staff tables (D56; tests/security/rls.test.ts checks every tenant table).
ALTER TABLE "staff_users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_users" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "staff_invitations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_invitations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_invitations" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_recovery_codes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_recovery_codes" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "staff_sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_sessions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_sessions" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "staff_service_links" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_service_links" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_service_links" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
--> statement-breakpoint
ALTER TABLE "staff_audit" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_audit" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_audit" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
