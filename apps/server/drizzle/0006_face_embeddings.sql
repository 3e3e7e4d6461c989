CREATE TABLE "memory_face_embeddings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"memory_id" uuid NOT NULL,
	"image_id" uuid,
	"descriptor" real[] NOT NULL,
	"negative" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"activity_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memory_face_embeddings" ADD CONSTRAINT "memory_face_embeddings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_face_embeddings" ADD CONSTRAINT "memory_face_embeddings_memory_id_memories_id_fk" FOREIGN KEY ("memory_id") REFERENCES "public"."memories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_face_embeddings" ADD CONSTRAINT "memory_face_embeddings_image_id_memory_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."memory_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_face_embeddings" ADD CONSTRAINT "memory_face_embeddings_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_face_embeddings_user_idx" ON "memory_face_embeddings" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "memory_face_embeddings_memory_idx" ON "memory_face_embeddings" USING btree ("memory_id");--> statement-breakpoint
CREATE INDEX "memory_face_embeddings_image_idx" ON "memory_face_embeddings" USING btree ("image_id");