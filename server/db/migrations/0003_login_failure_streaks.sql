CREATE TABLE "login_failure_streaks" (
	"tenant_id" text NOT NULL,
	"username" text NOT NULL,
	"failures" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_failure_streaks_tenant_id_username_pk" PRIMARY KEY("tenant_id","username")
);
