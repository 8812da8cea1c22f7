-- The audit's entries of one action, newest first, as an index range (D107): the completed account
-- deletions (D164) and the audit's "what" filter (D156) read a few rows of one action among a
-- season's views, which the tenant-and-time index could only find by reading every entry.
CREATE INDEX "staff_audit_by_action" ON "staff_audit" USING btree ("tenant_id","action","at","id");
