vcl 4.1;
# The edge of the stack: one listening address per service (named in the image's command: games
# :3001, travel :3002, cd :3003), each spread over that service's replicas. It caches whole answers
# as the services' own Cache-Control says, and nothing else:
#   public, max-age=N   stored N seconds, then revalidated with If-None-Match (kept 1 h for it);
#   no-cache            stored, but revalidated on every request: a 304 from the service
#                       refreshes the entry, a 200 replaces it;
#   no-store, private   never stored (Varnish's built-in rules);
#   no Cache-Control    never stored (default_ttl=0 in the image's command).
# Every answer says where it came from in X-Cache: HIT (from the cache, the service was not asked),
# REVALIDATED (the service answered 304 to If-None-Match, the stored answer was sent), MISS
# (fetched and stored) or PASS (fetched, not storable: a write, no-store).
import directors;
import std;

# Each replica's readiness, asked every second: 2 of the last 3 answers must be 200, so that a
# replica that says it is leaving (503) gets no new request within about 2 s.
probe ready {
    .url = "/readyz";
    .interval = 1s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    .initial = 1;
}

# The replicas, by the names docker-compose.yml gives them (the proxy's extra_hosts pins each to
# its fixed address, so that a recreated replica is found again without a reload). A replica that
# is not running (cd-service-2 on SQLite) is simply never ready.
backend games_1 { .host = "games-service-1"; .port = "3001"; .probe = ready; .connect_timeout = 1s; }
backend games_2 { .host = "games-service-2"; .port = "3001"; .probe = ready; .connect_timeout = 1s; }
backend travel_1 { .host = "travel-service-1"; .port = "3002"; .probe = ready; .connect_timeout = 1s; }
backend travel_2 { .host = "travel-service-2"; .port = "3002"; .probe = ready; .connect_timeout = 1s; }
backend cd_1 { .host = "cd-service-1"; .port = "3003"; .probe = ready; .connect_timeout = 1s; }
backend cd_2 { .host = "cd-service-2"; .port = "3003"; .probe = ready; .connect_timeout = 1s; }

sub vcl_init {
    new games = directors.round_robin();
    games.add_backend(games_1);
    games.add_backend(games_2);
    new travel = directors.round_robin();
    travel.add_backend(travel_1);
    travel.add_backend(travel_2);
    new cd = directors.round_robin();
    cd.add_backend(cd_1);
    cd.add_backend(cd_2);
}

sub vcl_recv {
    if (local.socket == "health") {
        # The container's health check (its own address, inside the container only).
        return (synth(200, "OK"));
    }
    if (local.socket == "games") {
        set req.backend_hint = games.backend();
    } elsif (local.socket == "travel") {
        set req.backend_hint = travel.backend();
    } else {
        set req.backend_hint = cd.backend();
    }

    # Every request gets an id the service logs and the client sees: the client's own when it is
    # one the services accept (service-kit's observe.ts), else a new one.
    if (req.http.X-Request-Id !~ "^[\w.:-]{1,128}$") {
        set req.http.X-Request-Id = "edge-" + server.identity + "-" + std.integer(time = now) + "-" + req.xid;
    }

    # The services compress in brotli or gzip and answer Vary: Accept-Encoding. The many ways of
    # writing that header come down to the encoding they would choose, so that the cache keeps at
    # most three variants of an answer (br, gzip, none).
    if (req.http.Accept-Encoding ~ "(?i)\bbr\b" && req.http.Accept-Encoding !~ "(?i)\bbr\s*;\s*q=0(\.0*)?\s*(,|$)") {
        set req.http.Accept-Encoding = "br";
    } elsif (req.http.Accept-Encoding ~ "(?i)\bgzip\b" && req.http.Accept-Encoding !~ "(?i)\bgzip\s*;\s*q=0(\.0*)?\s*(,|$)") {
        set req.http.Accept-Encoding = "gzip";
    } else {
        unset req.http.Accept-Encoding;
    }
    # Then Varnish's built-in rules: only GET and HEAD are looked up in the cache; requests with
    # Authorization or Cookie, and writes, go to the service.
}

sub vcl_hash {
    # The same path on two services is two answers.
    hash_data(local.socket);
    # Then the built-in: the URL and the Host.
}

sub vcl_backend_fetch {
    # Set by Varnish for its own conditional fetches; never trusted from a service.
    unset bereq.http.X-Cache-Fetch;
}

sub vcl_backend_response {
    unset beresp.http.X-Cache-Fetch;
    if (beresp.was_304) {
        set beresp.http.X-Cache-Fetch = "revalidated";
    }
    # no-cache: kept, fresh only for the requests that waited for this very fetch (Varnish
    # skips an object whose lifetime is 0 altogether, so 1 ms); any later request asks the
    # service with the stored ETag.
    if (beresp.http.Cache-Control ~ "(?i)(^|,)\s*no-cache\s*(,|$)"
        && beresp.http.Cache-Control !~ "(?i)(^|,)\s*(no-store|private)\s*(,|$)"
        && !beresp.http.Set-Cookie
        && (beresp.http.ETag || beresp.http.Last-Modified)) {
        set beresp.ttl = 1ms;
        set beresp.grace = 0s;
        set beresp.keep = 1h;
        return (deliver);
    }
    # Fresh for max-age: once stale, kept an hour more to be revalidated rather than fetched whole.
    if (beresp.ttl > 0s && (beresp.http.ETag || beresp.http.Last-Modified)) {
        set beresp.keep = 1h;
    }
    # Then the built-in rules: no-store, private, Set-Cookie, Vary: * and a zero lifetime are
    # never stored.
}

sub vcl_backend_error {
    # A replica that stopped (a restart) refuses the connection: a read is tried on the next
    # replica, as the director chooses. A write is never sent twice.
    if ((bereq.method == "GET" || bereq.method == "HEAD") && bereq.retries < 3) {
        return (retry);
    }
    # No replica could answer: the services' JSON error body, and when to try again.
    set beresp.uncacheable = true;
    set beresp.status = 503;
    set beresp.http.Content-Type = "application/json; charset=utf-8";
    set beresp.http.Cache-Control = "no-store";
    set beresp.http.Retry-After = "5";
    set beresp.body = {"{"error":"No replica of the service is ready; try again shortly","status":503}"};
    return (deliver);
}

sub vcl_deliver {
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } elsif (resp.http.X-Cache-Fetch == "revalidated") {
        set resp.http.X-Cache = "REVALIDATED";
    } elsif (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    unset resp.http.X-Cache-Fetch;
    # A stored answer carries the id of the request that fetched it: send this request's own.
    set resp.http.X-Request-Id = req.http.X-Request-Id;
}

sub vcl_synth {
    set resp.http.Cache-Control = "no-store";
    if (local.socket == "health") {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        set resp.body = "ok";
        return (deliver);
    }
    set resp.http.X-Request-Id = req.http.X-Request-Id;
}
