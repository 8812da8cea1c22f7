-- The queue stays fast with a season of history (D136): the claim's count of an owner's recent work
-- is served by an index on the owner, finished jobs are pruned (by status and age), and jobs run in
-- lanes. Jobs queued before this migration run in the print lane, one at a time, as they did.
ALTER TABLE "jobs" ADD COLUMN "lane" text DEFAULT 'fast' NOT NULL;--> statement-breakpoint
UPDATE "jobs" SET "lane" = 'print' WHERE "status" IN ('queued', 'running');--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "owner" text GENERATED ALWAYS AS (coalesce(payload->>'tenantId', '') || '/' || coalesce(payload->>'userId', '')) STORED;--> statement-breakpoint
CREATE INDEX "jobs_owner" ON "jobs" USING btree ("owner","status","updated_at");--> statement-breakpoint
CREATE INDEX "jobs_finished" ON "jobs" USING btree ("status","updated_at");
