-- A tenant's revision, raised by every publish and institution change (D145): each server and
-- worker process compares the revisions with what it serves and reloads its directory when they
-- differ, so a change made through one process reaches all of them within seconds.
ALTER TABLE "tenants" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;
