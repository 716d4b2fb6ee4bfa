-- Written here because HAProxy 2.6's cache collapses no requests (nginx's proxy_cache_lock,
-- Varnish's waiting list): every request that misses an entry while its answer is being fetched
-- would fetch it again.
--
-- `http-request lua.await-fetch <ms>`: waits, at most <ms> milliseconds, while another request is
-- fetching the answer of this request's cache entry, so that the cache lookup that follows finds it
-- stored. A request fetching an entry's answer tracks the entry's row of the `cache_writes` table
-- (haproxy.cfg) until its answer has been sent whole, and so stored; `table_trackers` counts those
-- requests, plus one for its own lookup.
local POLL_MS = 20

core.register_action("await-fetch", { "http-req" }, function(txn, most_ms)
  local entry = txn:get_var("txn.cache_entry")
  local most = tonumber(most_ms)
  local waited = 0
  while waited < most and txn.c:table_trackers(entry, "cache_writes") > 1 do
    core.msleep(POLL_MS)
    waited = waited + POLL_MS
  end
end, 1)
