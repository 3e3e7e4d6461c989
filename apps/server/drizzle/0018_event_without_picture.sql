ALTER TABLE "uploads" ALTER COLUMN "storage_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ALTER COLUMN "content_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "for_activity_id" uuid;--> statement-breakpoint
ALTER TABLE "nest_event_sessions" ADD COLUMN "clip_upload_id" uuid;