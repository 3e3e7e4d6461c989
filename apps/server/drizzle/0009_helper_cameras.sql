CREATE TABLE "helper_links" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"connected" boolean DEFAULT false NOT NULL,
	"version" text,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "helper_links" ADD CONSTRAINT "helper_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;