import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../portable';

/**
 * Issue 43: the ledger's posting primitive as a SQL function on PostgreSQL, so that a movement (its feature rows and
 * its journal entries) is one statement and one round trip (server/ledger/movement.ts, docs/ledger.md "One statement
 * per movement"). `ledger_post` does what postEntry (server/ledger/journal.ts) does on SQLite, in the same order:
 * creates the accounts met for the first time (their kind, player, scope and whether they may go below zero are the
 * caller's, computed by server/ledger/accounts.ts), locks them in ascending id order (FOR UPDATE), writes the entry
 * (a reference used before: LD002), refuses a player account going below zero (LD001), a posting made from a
 * balance read before that has moved since (LD005) and any other broken rule (LD003), then writes the balances and the postings in account-id order. It returns the entry id and, per posting in
 * the caller's order, the account id, the balance before and after and the account's version after. It raises
 * instead of answering a refusal, so the statement it is in rolls back as a whole: nothing half-written.
 * `ledger_require(ok, reason)` raises LD004 with the reason when ok is false: a movement's condition (a transfer
 * still pending, an Idempotency-Key not taken) stops the whole statement the same way.
 * The rules themselves (amounts, which accounts may go below zero, currencies) are checked in TypeScript first; the
 * function checks them again so that no caller can post what postEntry would refuse. SQLite has no functions: there
 * postEntry runs the same steps in the movement's transaction. Both are held to one property suite.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function ledger_require(p_ok boolean, p_reason text) returns boolean
    language plpgsql as $$
    begin
      if p_ok is not true then
        raise exception using errcode = 'LD004', message = p_reason;
      end if;
      return true;
    end
    $$`.execute(db);
  await sql`
    create function ledger_post(
      p_reference text, p_kind text, p_player_id bigint, p_currency text, p_memo text, p_reverses text,
      p_codes text[], p_kinds text[], p_players bigint[], p_scopes text[], p_allow_negative integer[], p_amounts bigint[],
      p_versions integer[], p_now text
    ) returns bigint[]
    language plpgsql as $$
    declare
      n integer := coalesce(array_length(p_codes, 1), 0);
      v_entry bigint;
      v_reverses bigint;
      v_seen integer := 0;
      v_i integer;
      v_after bigint;
      r record;
      ids bigint[] := array_fill(null::bigint, array[n]);
      befores bigint[] := array_fill(null::bigint, array[n]);
      afters bigint[] := array_fill(null::bigint, array[n]);
      versions integer[] := array_fill(null::integer, array[n]);
      floors integer[] := array_fill(null::integer, array[n]);
      answer bigint[];
    begin
      if n < 2 or array_length(p_amounts, 1) is distinct from n or array_length(p_kinds, 1) is distinct from n
         or array_length(p_players, 1) is distinct from n or array_length(p_scopes, 1) is distinct from n
         or array_length(p_allow_negative, 1) is distinct from n or array_length(p_versions, 1) is distinct from n then
        raise exception using errcode = 'LD003', message = 'an entry needs at least two postings, each with its account';
      end if;
      if exists (select 1 from unnest(p_amounts) a where a is null or a = 0) then
        raise exception using errcode = 'LD003', message = 'posting amounts must be non-zero integers of satang';
      end if;
      if (select sum(a) from unnest(p_amounts) a) <> 0 then
        raise exception using errcode = 'LD003', message = format('entry %s does not balance', p_reference);
      end if;
      if (select count(distinct c) from unnest(p_codes) c) <> n then
        raise exception using errcode = 'LD003', message = format('entry %s names an account twice', p_reference);
      end if;

      -- First use: the accounts not there yet. A player's account only in the player's own currency.
      insert into ledger_accounts (code, kind, player_id, game_code, currency, balance, version, allow_negative, created_at, updated_at)
      select t.code, t.kind, t.player, t.scope, p_currency, 0, 0, t.allow_negative, p_now, p_now
      from unnest(p_codes, p_kinds, p_players, p_scopes, p_allow_negative) as t(code, kind, player, scope, allow_negative)
      where not exists (select 1 from ledger_accounts a where a.code = t.code)
        and (t.player is null or exists (select 1 from players p where p.id = t.player and p.currency = p_currency))
      on conflict (code) do nothing;

      -- Locked in ascending id order: two movements never wait for each other in a cycle.
      for r in select a.id, a.code, a.currency, a.balance, a.version, a.allow_negative from ledger_accounts a
               where a.code = any (p_codes) order by a.id for update loop
        v_i := array_position(p_codes, r.code::text);
        if r.currency <> p_currency then
          raise exception using errcode = 'LD003', message = format('account %s is in %s, not %s', r.code, r.currency, p_currency);
        end if;
        ids[v_i] := r.id;
        befores[v_i] := r.balance;
        versions[v_i] := r.version + 1;
        floors[v_i] := r.allow_negative;
        v_seen := v_seen + 1;
      end loop;
      if v_seen <> n then
        raise exception using errcode = 'LD003', message = format('an account of entry %s could not be created (a player account in another currency?)', p_reference);
      end if;

      if p_reverses is not null then
        select e.id into v_reverses from journal_entries e where e.reference = p_reverses;
        if v_reverses is null then
          raise exception using errcode = 'LD003', message = format('no entry %s to reverse', p_reverses);
        end if;
      end if;
      insert into journal_entries (reference, kind, player_id, currency, reverses_entry_id, memo, created_at)
      values (p_reference, p_kind, p_player_id, p_currency, v_reverses, p_memo, p_now)
      on conflict (reference) do nothing
      returning id into v_entry;
      if v_entry is null then
        raise exception using errcode = 'LD002', message = p_reference;
      end if;

      for v_i in 1..n loop
        -- A posting made from a balance the caller read (a game's win or loss: the mirror against the provider's
        -- figure) holds only while the account is still at the version read.
        if p_versions[v_i] is not null and versions[v_i] - 1 <> p_versions[v_i] then
          raise exception using errcode = 'LD005', message = p_codes[v_i];
        end if;
        v_after := befores[v_i] + p_amounts[v_i];
        -- The account's own rule, as postEntry reads it from the locked row (the caller's allow_negative only
        -- creates an account).
        if v_after < 0 and floors[v_i] = 0 then
          raise exception using errcode = 'LD001', message = p_codes[v_i];
        end if;
        afters[v_i] := v_after;
      end loop;

      update ledger_accounts a set balance = d.after, version = d.version, updated_at = p_now
      from unnest(ids, afters, versions) as d(id, after, version) where a.id = d.id;
      insert into ledger_postings (entry_id, account_id, amount, balance_before, balance_after, account_version, created_at)
      select v_entry, d.id, d.amount, d.before, d.after, d.version, p_now
      from unnest(ids, p_amounts, befores, afters, versions) as d(id, amount, before, after, version)
      order by d.id;

      answer := array[v_entry];
      for v_i in 1..n loop
        answer := answer || array[ids[v_i], befores[v_i], afters[v_i], versions[v_i]::bigint];
      end loop;
      return answer;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop function if exists ledger_post(text, text, bigint, text, text, text, text[], text[], bigint[], text[], integer[], bigint[], integer[], text)`.execute(db);
  await sql`drop function if exists ledger_require(boolean, text)`.execute(db);
}
