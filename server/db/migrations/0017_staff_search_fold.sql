-- Search finds anyone whatever they type (D146): each word of every name (given, middle, last,
-- preferred; each part of a hyphenated or multi-word surname) and each part of the address, folded
-- by one function the rows' words and the typed words both go through, so `Gonzalez` finds
-- `González` and back, on any server locale (PGlite has no unaccent; a "C" PostgreSQL lowers ASCII
-- only, hence the explicit letters).
CREATE FUNCTION "staff_search_fold"(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
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
$$;--> statement-breakpoint
-- The distinct words of a text, as the list's words keep them (cut at 200 characters, D126).
CREATE FUNCTION "staff_search_words"(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT left(w, 200)), '{}')
  FROM regexp_split_to_table(staff_search_fold(t), ' ') AS w WHERE w <> ''
$$;--> statement-breakpoint
-- The list's row: as in 0012, with `search` now the folded words of the names and the address.
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
END $$;--> statement-breakpoint
-- A save that changes no name and no submission changes only the list's last change (D129); the
-- preferred name is a name now.
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
END $$;--> statement-breakpoint
-- The rows already there, rebuilt (FORCE lifted for the copy only, as in 0009).
ALTER TABLE "applications" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "web_status_events" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_listing" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_listing_words" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
SELECT staff_listing_rebuild(a) FROM applications a;--> statement-breakpoint
ALTER TABLE "applications" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "web_status_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_listing" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "staff_listing_words" FORCE ROW LEVEL SECURITY;
