-- The audit's whole history, paged by seeking (D107, D156): each page is an index range of the
-- tenant's entries by time and id, of one staff member's (the audit's "who", and the search fold's
-- look at their last entry) or of one applicant's.
DROP INDEX IF EXISTS "staff_audit_recent";--> statement-breakpoint
CREATE INDEX "staff_audit_recent" ON "staff_audit" USING btree ("tenant_id","at","id");--> statement-breakpoint
CREATE INDEX "staff_audit_by_staff" ON "staff_audit" USING btree ("tenant_id","staff_user_id","at","id");--> statement-breakpoint
CREATE INDEX "staff_audit_by_applicant" ON "staff_audit" USING btree ("tenant_id","applicant_id","at","id") WHERE "applicant_id" IS NOT NULL;
