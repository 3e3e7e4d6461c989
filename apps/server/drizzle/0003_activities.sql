CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"camera_id" uuid NOT NULL,
	"camera_name" text NOT NULL,
	"site_id" uuid,
	"occurred_at" timestamp with time zone NOT NULL,
	"last_file_at" timestamp with time zone NOT NULL,
	"media_kind" text NOT NULL,
	"thumbnail_key" text,
	"video_key" text,
	"hls_key" text,
	"image_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"width" integer,
	"height" integer,
	"duration_seconds" real,
	"objects" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recognised" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text,
	"description_localized" text,
	"analysed_at" timestamp with time zone,
	"alert_message_id" uuid,
	"coalesced_activity_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_counters" (
	"user_id" uuid NOT NULL,
	"day" text NOT NULL,
	"reason" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ingest_counters_user_id_day_reason_pk" PRIMARY KEY("user_id","day","reason")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"camera_name" text NOT NULL,
	"source" text NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"media_kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"activity_id" uuid,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_counters" ADD CONSTRAINT "ingest_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_user_occurred_idx" ON "activities" USING btree ("user_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activities_camera_occurred_idx" ON "activities" USING btree ("camera_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activities_occurred_idx" ON "activities" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "uploads_user_received_idx" ON "uploads" USING btree ("user_id","received_at");--> statement-breakpoint
CREATE INDEX "uploads_status_idx" ON "uploads" USING btree ("status","received_at");