-- Mail is sent by jobs, once per event (D138): a job may name its event, and a kind queues one job per event.
ALTER TABLE "jobs" ADD COLUMN "key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_kind_key" ON "jobs" USING btree ("kind","key") WHERE "key" is not null;
