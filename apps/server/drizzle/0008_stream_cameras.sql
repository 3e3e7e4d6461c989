ALTER TABLE "cameras" ADD COLUMN "connection_type" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "connection" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "stream_config" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "configuration_error_code" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "configuration_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "motion_sensitivity" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "stream_status" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "stream_error" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "snapshot_key" text;--> statement-breakpoint
ALTER TABLE "cameras" ADD COLUMN "snapshot_at" timestamp with time zone;