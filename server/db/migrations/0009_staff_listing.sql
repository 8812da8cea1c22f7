CREATE TABLE "staff_listing" (
	"tenant_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"sort_name" text DEFAULT '' NOT NULL,
	"email" text NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'started' NOT NULL,
	"submitted_at" timestamp with time zone,
	"submitted_sort" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"documents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "staff_listing_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "staff_listing" ADD CONSTRAINT "staff_listing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_listing_updated" ON "staff_listing" USING btree ("tenant_id","updated_at","user_id");--> statement-breakpoint
CREATE INDEX "staff_listing_submitted" ON "staff_listing" USING btree ("tenant_id","submitted_sort","user_id");--> statement-breakpoint
CREATE INDEX "staff_listing_name" ON "staff_listing" USING btree ("tenant_id","sort_name","user_id");--> statement-breakpoint
CREATE INDEX "staff_listing_email" ON "staff_listing" USING btree ("tenant_id","email","user_id");--> statement-breakpoint
CREATE INDEX "staff_listing_status" ON "staff_listing" USING btree ("tenant_id","status","user_id");--> statement-breakpoint
CREATE INDEX "staff_listing_status_updated" ON "staff_listing" USING btree ("tenant_id","status","updated_at","user_id");--> statement-breakpoint
CREATE INDEX "staff_listing_documents" ON "staff_listing" USING btree ("tenant_id","documents","user_id");--> statement-breakpoint
-- The console's list is kept by the database (D108): whatever writes applications, accounts, web
-- statuses or documents, the list follows in the same transaction. Row-level security applies to
-- the triggers' statements as to any other (they run in the writer's tenant).
CREATE FUNCTION "staff_listing_status"(tenant text, applicant uuid, submitted timestamptz)
  RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN submitted IS NOT NULL THEN 'submitted'
    WHEN EXISTS (SELECT 1 FROM web_status_events w WHERE w.tenant_id = tenant
      AND w.user_id = applicant AND w.web_status = 'validating') THEN 'validating'
    ELSE 'started' END
$$;--> statement-breakpoint
CREATE FUNCTION "staff_listing_of_application"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  first_name text := lower(coalesce(NEW.answers->>'first_name', ''));
  last_name text := lower(coalesce(NEW.answers->>'last_name', ''));
BEGIN
  INSERT INTO staff_listing AS l (tenant_id, user_id, name, sort_name, email, search, status,
      submitted_at, submitted_sort, updated_at, documents)
    SELECT NEW.tenant_id, NEW.user_id,
      concat_ws(' ', nullif(NEW.answers->>'first_name', ''), nullif(NEW.answers->>'middle_name', ''),
        nullif(NEW.answers->>'last_name', '')),
      last_name || ' ' || first_name,
      u.email,
      ' ' || first_name || ' ' || last_name || ' ' || lower(u.email),
      staff_listing_status(NEW.tenant_id, NEW.user_id, NEW.submitted_at),
      NEW.submitted_at, coalesce(NEW.submitted_at, '-infinity'), NEW.updated_at,
      (SELECT count(*) FROM documents d WHERE d.tenant_id = NEW.tenant_id
        AND d.user_id = NEW.user_id AND d.answered)
    FROM users u WHERE u.id = NEW.user_id AND u.tenant_id = NEW.tenant_id
  ON CONFLICT (tenant_id, user_id) DO UPDATE SET name = excluded.name,
    sort_name = excluded.sort_name, email = excluded.email, search = excluded.search,
    status = excluded.status, submitted_at = excluded.submitted_at,
    submitted_sort = excluded.submitted_sort, updated_at = excluded.updated_at,
    documents = excluded.documents;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "staff_listing_application" AFTER INSERT OR UPDATE ON "applications"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_of_application();--> statement-breakpoint
CREATE FUNCTION "staff_listing_application_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_listing WHERE tenant_id = OLD.tenant_id AND user_id = OLD.user_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "staff_listing_application_deleted" AFTER DELETE ON "applications"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_application_gone();--> statement-breakpoint
-- A changed address: the application's row is written again (its trigger rebuilds the list's row).
CREATE FUNCTION "staff_listing_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE applications SET updated_at = updated_at
    WHERE tenant_id = NEW.tenant_id AND user_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "staff_listing_user" AFTER UPDATE OF "email" ON "users"
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION staff_listing_of_user();--> statement-breakpoint
CREATE FUNCTION "staff_listing_of_web_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE staff_listing SET status = 'validating'
    WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id AND status = 'started';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "staff_listing_web_status" AFTER INSERT ON "web_status_events"
  FOR EACH ROW WHEN (NEW.web_status = 'validating')
  EXECUTE FUNCTION staff_listing_of_web_status();--> statement-breakpoint
CREATE FUNCTION "staff_listing_of_documents"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_of documents%ROWTYPE;
BEGIN
  IF TG_OP = 'DELETE' THEN row_of := OLD; ELSE row_of := NEW; END IF;
  UPDATE staff_listing SET documents = (SELECT count(*) FROM documents d
      WHERE d.tenant_id = row_of.tenant_id AND d.user_id = row_of.user_id AND d.answered)
    WHERE tenant_id = row_of.tenant_id AND user_id = row_of.user_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "staff_listing_documents" AFTER INSERT OR DELETE OR UPDATE OF "answered" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_of_documents();--> statement-breakpoint
-- The rows of the applications already there. FORCE is lifted for the copy only: the migration runs
-- without a tenant, and with the policies forced it would read no application of any tenant.
ALTER TABLE "applications" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "web_status_events" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "applications" SET updated_at = updated_at;--> statement-breakpoint
ALTER TABLE "applications" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "web_status_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- Row-level security for the list (D56; tests/security/rls.test.ts checks every tenant table).
ALTER TABLE "staff_listing" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_listing" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_listing" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));--> statement-breakpoint
-- The search's trigram index where the server has pg_trgm (PostgreSQL's contrib, trusted since 13).
-- Without it (PGlite as started here, or a server without contrib) the search reads the one table,
-- which stays correct and is fast enough for an embedded install (D108).
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX "staff_listing_search" ON "staff_listing" USING gin ("search" gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available: the staff search scans staff_listing';
END $$;
