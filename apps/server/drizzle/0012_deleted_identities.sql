CREATE TABLE "deleted_identities" (
	"identity_hash" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL
);
