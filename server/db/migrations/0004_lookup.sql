CREATE TABLE "lookup_entries" (
	"tenant_id" text NOT NULL,
	"category" text NOT NULL,
	"id" text NOT NULL,
	"text" text NOT NULL,
	"sub_text" text NOT NULL,
	"fields" jsonb NOT NULL,
	CONSTRAINT "lookup_entries_tenant_id_category_id_pk" PRIMARY KEY("tenant_id","category","id")
);
--> statement-breakpoint
CREATE TABLE "lookup_lists" (
	"tenant_id" text NOT NULL,
	"category" text NOT NULL,
	"version" integer NOT NULL,
	"sample" boolean NOT NULL,
	"row_count" integer NOT NULL,
	"imported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lookup_lists_tenant_id_category_pk" PRIMARY KEY("tenant_id","category")
);
--> statement-breakpoint
ALTER TABLE "lookup_entries" ADD CONSTRAINT "lookup_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lookup_lists" ADD CONSTRAINT "lookup_lists_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;