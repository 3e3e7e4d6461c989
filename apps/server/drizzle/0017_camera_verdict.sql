ALTER TABLE "uploads" ADD COLUMN "camera_verdict" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "camera_verdict" jsonb DEFAULT '[]'::jsonb NOT NULL;