CREATE TABLE "recurring_faces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'offered' NOT NULL,
	"message_id" uuid,
	"centroid" real[] NOT NULL,
	"face_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"photo_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"visits" integer NOT NULL,
	"days" integer NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"memory_id" uuid,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recurring_faces" ADD CONSTRAINT "recurring_faces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recurring_faces" ADD CONSTRAINT "recurring_faces_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recurring_faces_user_idx" ON "recurring_faces" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recurring_faces_message_idx" ON "recurring_faces" USING btree ("message_id");