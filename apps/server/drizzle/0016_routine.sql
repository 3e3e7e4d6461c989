ALTER TABLE "cameras" ADD COLUMN "only_unusual_alerts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "activities" ADD COLUMN "routine" jsonb;