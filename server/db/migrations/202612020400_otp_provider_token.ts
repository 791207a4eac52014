import type { Kysely } from 'kysely';

/**
 * Issue 45: an OTP service that makes and checks the code itself (SMS_PROVIDER=thaibulksms,
 * docs/providers/thaibulksms.md). Our row keeps the otpToken, reference, limits and tries as before; the provider's
 * token for the code is stored beside them (null: our own code, or none was sent). Its code_hash then holds the
 * HMAC of a random value until the provider accepts a pin, and of that pin after (the double submit stays local).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('otp_requests').addColumn('provider_token', 'varchar(255)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('otp_requests').dropColumn('provider_token').execute();
}
