CREATE TABLE "staff_listing_words" (
	"tenant_id" text NOT NULL,
	"word" text COLLATE "C" NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "staff_listing_words_tenant_id_word_user_id_pk" PRIMARY KEY("tenant_id","word","user_id")
);
--> statement-breakpoint
DROP INDEX IF EXISTS "applications_updated";--> statement-breakpoint
DROP INDEX IF EXISTS "applications_submitted";--> statement-breakpoint
DROP INDEX IF EXISTS "applications_first_name";--> statement-breakpoint
DROP INDEX IF EXISTS "applications_last_name";--> statement-breakpoint
DROP INDEX IF EXISTS "users_email_prefix";--> statement-breakpoint
CREATE INDEX "staff_listing_words_of_row" ON "staff_listing_words" USING btree ("tenant_id","user_id");--> statement-breakpoint
ALTER TABLE "staff_listing_words" ADD CONSTRAINT "staff_listing_words_row" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."staff_listing"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The search reads the words, not the trigram index: row-level security lets an index answer only
-- leakproof comparisons, and LIKE is not one, so under the policy the trigram index was never used
-- (D126). The extension stays: dropping it is the server administrator's call.
DROP INDEX IF EXISTS "staff_listing_search";--> statement-breakpoint
-- The list's row keeps its words: each space-separated word of `search`, cut at 200 characters
-- (a search word is at most 100, so a prefix of one is a prefix of the other).
CREATE FUNCTION "staff_listing_words_of_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_listing_words WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id;
  INSERT INTO staff_listing_words (tenant_id, word, user_id)
    SELECT DISTINCT NEW.tenant_id, left(word, 200), NEW.user_id
    FROM regexp_split_to_table(btrim(NEW.search), ' +') AS word WHERE word <> '';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "staff_listing_words_inserted" AFTER INSERT ON "staff_listing"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_words_of_row();--> statement-breakpoint
CREATE TRIGGER "staff_listing_words_updated" AFTER UPDATE OF "search" ON "staff_listing"
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search)
  EXECUTE FUNCTION staff_listing_words_of_row();--> statement-breakpoint
-- The words of the rows already there (FORCE lifted for the copy only, as in 0009).
ALTER TABLE "staff_listing" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO "staff_listing_words" (tenant_id, word, user_id)
  SELECT DISTINCT l.tenant_id, left(word, 200), l.user_id
  FROM staff_listing l, regexp_split_to_table(btrim(l.search), ' +') AS word WHERE word <> '';--> statement-breakpoint
ALTER TABLE "staff_listing" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- Row-level security for the words (D56; tests/security/rls.test.ts checks every tenant table).
ALTER TABLE "staff_listing_words" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_listing_words" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "staff_listing_words" AS PERMISSIVE FOR ALL TO public
  USING ("tenant_id" = current_setting('app.tenant_id', true))
  WITH CHECK ("tenant_id" = current_setting('app.tenant_id', true));
