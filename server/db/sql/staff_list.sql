-- The staff list's functions and triggers as they are now (D108, D170): the database keeps the
-- console's list (staff_listing, staff_listing_words) in the writer's transaction, whatever writes
-- applications, accounts, web statuses or documents. Row-level security applies to the triggers'
-- statements as to any other (they run in the writer's tenant).
--
-- This file is the source: a change edits it and adds a migration that applies it again
-- (tests/server/databaseFunctions.test.ts checks that the migrated database has exactly these).

-- Search finds anyone whatever they type (D146): each word of every name (given, middle, last,
-- preferred; each part of a hyphenated or multi-word surname) and each part of the address, folded
-- by one function the rows' words and the typed words both go through, so `Gonzalez` finds
-- `González` and back, on any server locale (PGlite has no unaccent; a "C" PostgreSQL lowers ASCII
-- only, hence the explicit letters).
CREATE OR REPLACE FUNCTION "staff_search_fold"(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(
    replace(replace(replace(replace(replace(replace(translate(
      -- Accents are marks once decomposed; lower case after, when the letters are plain.
      lower(regexp_replace(normalize(t, NFKD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u00b7]', '', 'g')),
      'ØøŁłĐđÐðıĦħŦŧŊŋĸĿŀΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩςАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏ',
      'oollddddihhttnnkllαβγδεζηθικλμνξοπρστυφχψωσабвгдежзийклмнопрстуфхцчшщъыьэюяѐёђѓєѕіїјљњћќѝўџ'),
      'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'),
    -- Spaces and punctuation separate words: a hyphen, an apostrophe, the dots and @ of an address.
    '[\s!-/:-@\[-`{-~\u00a0\u2000-\u200b\u2010-\u2015\u2018-\u201f\u2026\u202f\u205f\u3000]+',
    ' ', 'g'))
$$;
--> statement-breakpoint
-- The distinct words of a text, as the list's words keep them (cut at 200 characters, D126).
CREATE OR REPLACE FUNCTION "staff_search_words"(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT left(w, 200)), '{}')
  FROM regexp_split_to_table(staff_search_fold(t), ' ') AS w WHERE w <> ''
$$;
--> statement-breakpoint
-- An application's status in the list: submitted, validating (it asked for its errors once) or started.
CREATE OR REPLACE FUNCTION "staff_listing_status"(tenant text, applicant uuid, submitted timestamptz)
  RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN submitted IS NOT NULL THEN 'submitted'
    WHEN EXISTS (SELECT 1 FROM web_status_events w WHERE w.tenant_id = tenant
      AND w.user_id = applicant AND w.web_status = 'validating') THEN 'validating'
    ELSE 'started' END
$$;
--> statement-breakpoint
-- The list's row of an application, built from the application, its account, its web statuses and
-- its documents; `search` is the folded words of the names and the address.
CREATE OR REPLACE FUNCTION "staff_listing_rebuild"(a applications) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first_name text := lower(coalesce(a.answers->>'first_name', ''));
  last_name text := lower(coalesce(a.answers->>'last_name', ''));
BEGIN
  INSERT INTO staff_listing AS l (tenant_id, user_id, name, sort_name, email, search, status,
      submitted_at, submitted_sort, updated_at, documents)
    SELECT a.tenant_id, a.user_id,
      concat_ws(' ', nullif(a.answers->>'first_name', ''), nullif(a.answers->>'middle_name', ''),
        nullif(a.answers->>'last_name', '')),
      last_name || ' ' || first_name,
      u.email,
      ' ' || array_to_string(staff_search_words(concat_ws(' ', a.answers->>'first_name',
        a.answers->>'middle_name', a.answers->>'last_name', a.answers->>'preferred_name',
        u.email)), ' '),
      staff_listing_status(a.tenant_id, a.user_id, a.submitted_at),
      a.submitted_at, coalesce(a.submitted_at, '-infinity'), a.updated_at,
      (SELECT count(*) FROM documents d WHERE d.tenant_id = a.tenant_id
        AND d.user_id = a.user_id AND d.answered)
    FROM users u WHERE u.id = a.user_id AND u.tenant_id = a.tenant_id
  ON CONFLICT (tenant_id, user_id) DO UPDATE SET name = excluded.name,
    sort_name = excluded.sort_name, email = excluded.email, search = excluded.search,
    status = excluded.status, submitted_at = excluded.submitted_at,
    submitted_sort = excluded.submitted_sort, updated_at = excluded.updated_at,
    documents = excluded.documents;
END $$;
--> statement-breakpoint
-- A save that changes no name and no submission (almost every autosave) changes only the list's
-- last change (D129): the account's address, the web statuses and the documents have triggers of
-- their own, so the rest of the row is still right.
CREATE OR REPLACE FUNCTION "staff_listing_of_application"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
      AND NEW.submitted_at IS NOT DISTINCT FROM OLD.submitted_at
      AND NEW.answers->'first_name' IS NOT DISTINCT FROM OLD.answers->'first_name'
      AND NEW.answers->'middle_name' IS NOT DISTINCT FROM OLD.answers->'middle_name'
      AND NEW.answers->'last_name' IS NOT DISTINCT FROM OLD.answers->'last_name'
      AND NEW.answers->'preferred_name' IS NOT DISTINCT FROM OLD.answers->'preferred_name' THEN
    IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
      RETURN NULL;
    END IF;
    UPDATE staff_listing SET updated_at = NEW.updated_at
      WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id;
    IF FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM staff_listing_rebuild(NEW);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_application" AFTER INSERT OR UPDATE ON "applications"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_of_application();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "staff_listing_application_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_listing WHERE tenant_id = OLD.tenant_id AND user_id = OLD.user_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_application_deleted" AFTER DELETE ON "applications"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_application_gone();
--> statement-breakpoint
-- A changed address rebuilds the list's row of the account's application.
CREATE OR REPLACE FUNCTION "staff_listing_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM staff_listing_rebuild(a) FROM applications a
    WHERE a.tenant_id = NEW.tenant_id AND a.user_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_user" AFTER UPDATE OF "email" ON "users"
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION staff_listing_of_user();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "staff_listing_of_web_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE staff_listing SET status = 'validating'
    WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id AND status = 'started';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_web_status" AFTER INSERT ON "web_status_events"
  FOR EACH ROW WHEN (NEW.web_status = 'validating')
  EXECUTE FUNCTION staff_listing_of_web_status();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "staff_listing_of_documents"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_of documents%ROWTYPE;
BEGIN
  IF TG_OP = 'DELETE' THEN row_of := OLD; ELSE row_of := NEW; END IF;
  UPDATE staff_listing SET documents = (SELECT count(*) FROM documents d
      WHERE d.tenant_id = row_of.tenant_id AND d.user_id = row_of.user_id AND d.answered)
    WHERE tenant_id = row_of.tenant_id AND user_id = row_of.user_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_documents" AFTER INSERT OR DELETE OR UPDATE OF "answered" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_of_documents();
--> statement-breakpoint
-- The list's row keeps its words: each space-separated word of `search`, cut at 200 characters
-- (a search word is at most 100, so a prefix of one is a prefix of the other; D126).
CREATE OR REPLACE FUNCTION "staff_listing_words_of_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM staff_listing_words WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id;
  INSERT INTO staff_listing_words (tenant_id, word, user_id)
    SELECT DISTINCT NEW.tenant_id, left(word, 200), NEW.user_id
    FROM regexp_split_to_table(btrim(NEW.search), ' +') AS word WHERE word <> '';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_words_inserted" AFTER INSERT ON "staff_listing"
  FOR EACH ROW EXECUTE FUNCTION staff_listing_words_of_row();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "staff_listing_words_updated" AFTER UPDATE OF "search" ON "staff_listing"
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search)
  EXECUTE FUNCTION staff_listing_words_of_row();
