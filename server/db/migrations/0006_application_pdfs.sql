CREATE TABLE "application_pdfs" (
	"tenant_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"pdf_key" text,
	"source" text NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "application_pdfs_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "application_pdfs" ADD CONSTRAINT "application_pdfs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;