-- The runs of `npm run keys -- rotate --reencrypt` (D167): a run stopped midway is resumed by the
-- next one, which leaves the tenants it had finished as they are; a finished run is never resumed.
-- Outside row-level security like "tenants": it names no tenant and holds no applicant data.
CREATE TABLE "key_reencryption_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
