CREATE TABLE "service_token_revocations" (
	"tenant_id" text NOT NULL,
	"token_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_token_revocations_tenant_id_token_id_pk" PRIMARY KEY("tenant_id","token_id")
);
--> statement-breakpoint
ALTER TABLE "service_token_revocations" ADD CONSTRAINT "service_token_revocations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;