CREATE TABLE "activity_faces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activity_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"box" jsonb NOT NULL,
	"descriptor" real[] NOT NULL,
	"memory_id" uuid,
	"distance" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "ephemeral_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "analysed_media" text;--> statement-breakpoint
ALTER TABLE "activity_faces" ADD CONSTRAINT "activity_faces_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_faces" ADD CONSTRAINT "activity_faces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_faces" ADD CONSTRAINT "activity_faces_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_faces_activity_idx" ON "activity_faces" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "activity_faces_user_idx" ON "activity_faces" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "activities_ephemeral_idx" ON "activities" USING btree ("ephemeral_until") WHERE "activities"."ephemeral_until" is not null;