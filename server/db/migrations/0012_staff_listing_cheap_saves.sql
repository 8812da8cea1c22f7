-- The list's row of an application, built from the application, its account, its web statuses and
-- its documents (the body of 0009's trigger, now callable for one application).
CREATE FUNCTION "staff_listing_rebuild"(a applications) RETURNS void LANGUAGE plpgsql AS $$
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
      ' ' || first_name || ' ' || last_name || ' ' || lower(u.email),
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
-- A save that changes no name and no submission (almost every autosave) changes only the list's
-- last change (D129): the account's address, the web statuses and the documents have triggers of
-- their own, so the rest of the row is still right.
CREATE OR REPLACE FUNCTION "staff_listing_of_application"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
      AND NEW.submitted_at IS NOT DISTINCT FROM OLD.submitted_at
      AND NEW.answers->'first_name' IS NOT DISTINCT FROM OLD.answers->'first_name'
      AND NEW.answers->'middle_name' IS NOT DISTINCT FROM OLD.answers->'middle_name'
      AND NEW.answers->'last_name' IS NOT DISTINCT FROM OLD.answers->'last_name' THEN
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
-- A changed address rebuilds the list's row itself: the application's row is no longer written for
-- it (a write of the same row would now change nothing of the list).
CREATE OR REPLACE FUNCTION "staff_listing_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM staff_listing_rebuild(a) FROM applications a
    WHERE a.tenant_id = NEW.tenant_id AND a.user_id = NEW.id;
  RETURN NULL;
END $$;
