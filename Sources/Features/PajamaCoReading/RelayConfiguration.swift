import FoundationEssentials
import Glibc
import PajamaBasics

/// A relay node's settings (`pajama relay`) and the nginx configuration made from them (docs/coreading.md,
/// "Relays"). A node is Debian's nginx with the nchan module: the owner publishes each change of the session
/// once to its publisher location, nchan carries it to every follower's WebSocket (or EventSource) on every
/// node sharing the channel (through Redis with `redis`), and the story's files come through nginx's proxy
/// cache in front of the owner's host (`origin`), so each file crosses the owner's link at most once per node.
public struct RelayConfiguration: Sendable, Equatable {
    /// The address and port followers (and the owner) reach.
    public var bind: String
    public var port: Int
    /// `redis://HOST:PORT`: nodes given the same Redis (and token) share the session.
    public var redis: String?
    /// The followers' token (the session's: the owner's host has the same), checked at the node for every request.
    public var token: String
    /// The owner's secret: only a request with it publishes.
    public var secret: String
    /// The owner's host (`http://HOST:PORT/`), whose story files the node caches; nil: the node serves no files
    /// (a story on a web server, which followers read there).
    public var origin: URL?
    /// TLS: a PEM certificate (with its chain) and key; the node then speaks only HTTPS and WSS.
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// The node's private folder (0700): its configuration, pid file, cache and temporary files.
    public var folder: String
    /// nginx's error log (beside Pajama's log).
    public var errorLog: String
    /// nginx's connections per worker (followers, publishes, file requests); its workers' descriptor limit is
    /// raised to match (`worker_rlimit_nofile`, within the hard limit unless the node runs as root).
    public var workerConnections: Int

    public init(bind: String = "127.0.0.1", port: Int, redis: String? = nil, token: String, secret: String, origin: URL?,
                tlsCertificate: String? = nil, tlsKey: String? = nil, folder: String, errorLog: String, workerConnections: Int = 16384) {
        self.bind = bind
        self.port = port
        self.redis = redis
        self.token = token
        self.secret = secret
        self.origin = origin
        self.tlsCertificate = tlsCertificate
        self.tlsKey = tlsKey
        self.folder = folder
        self.errorLog = errorLog
        self.workerConnections = workerConnections
    }

    /// The path followers' WebSockets open (as on a host: the join URL's `session`).
    public static let sessionPath = "/session"
    /// Where the owner publishes (POST, with the secret) and reads the channel's subscriber count (GET).
    public static let publishPath = "/relay/publish"
    /// Where the node itself asks, on its private socket (`readinessSocket`), whether nchan answers for the
    /// channel: 503 while nchan's link to Redis is not up (it then refuses every follower with 503), anything
    /// else once it is.
    public static let readinessPath = "/relay/ready"
    /// The header a node's `/session` answers carry, refusals included.
    public static let relayHeader = "X-Pajama-Relay"
    /// The environment variable of the owner's secret (read by `pajama relay` and `pajama host --relay`).
    public static let secretVariable = "PAJAMA_RELAY_SECRET"

    /// Characters a relay's token and secret may have: they are written into nginx's configuration and compared
    /// there with `?token=` as sent (not percent-decoded), so only URL-safe characters that need no quoting.
    public static func problem(with token: String, named option: String) -> String? {
        if let problem = HostAccess.problem(with: token) { return "\(option): \(problem)" }
        let allowed = token.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar)
        }
        guard allowed else { return "\(option): a relay's token has letters, digits, '.', '_' and '-' only (it goes into nginx's configuration)" }
        return nil
    }

    /// The nchan channel of the session: the same for every node given the same token, and different for
    /// sessions with other tokens sharing one Redis (a hash: the token itself is not in Redis).
    public var channel: String {
        let digest = sha256(Array("pajama-relay-channel:\(token)".utf8))
        return "pajama-" + hexDigits(digest.prefix(12))
    }

    /// The Unix socket on which the node answers only its own readiness question (`readinessPath`), in its
    /// private folder; in /tmp, named by a hash of the folder, when that path is too long for a socket's
    /// address (108 bytes on Linux).
    public var readinessSocket: String {
        let inFolder = folder + "/ready.sock"
        guard inFolder.utf8.count > 100 else { return inFolder }
        return "/tmp/pajama-relay-" + hexDigits(sha256(Array(folder.utf8)).prefix(8)) + ".sock"
    }

    /// Whether followers reach the node over TLS.
    public var usesTLS: Bool { tlsCertificate != nil }

    /// The URL followers join (and the owner publishes through).
    public var url: String {
        let scheme = usesTLS ? "https" : "http"
        let host = bind.contains(":") ? "[\(bind)]" : bind
        return "\(scheme)://\(host == "0.0.0.0" || host == "[::]" ? ProcessInfo.processInfo.hostName : host):\(port)/"
    }

    /// The nginx configuration: `module` is nchan's module file; `user` the account nginx's workers run as when
    /// the node runs as root (nil otherwise).
    public func nginxConfiguration(module: String, user: String?) -> String {
        let folder = self.folder
        let listen = bind.contains(":") ? "[\(bind)]:\(port)" : "\(bind):\(port)"
        // Every node given the same Redis keeps the channel there (nchan 1.3's upstream form). nchan tries a
        // lost or refused Redis again after 0.5 s, then 50% longer each time; at most every 2 s here (nchan's
        // 10 s would keep a node refusing followers, and its start waiting, for up to 10 s after Redis is back).
        let redisLine = redis == nil ? "" : "\n            nchan_redis_pass pajama_redis;"
        let redisUpstream = redis.map { "\n    upstream pajama_redis { nchan_redis_server \"\($0)\"; nchan_redis_reconnect_delay_max 2s; }" } ?? ""
        // Audience votes (`pajama host --votes`): a follower here POSTs its vote, which the node passes to the
        // owner's host with the token (the host counts at most as many voters as the node has followers).
        var voteLocation = ""
        if let origin {
            var upstream = origin.absoluteString
            while upstream.hasSuffix("/") { upstream.removeLast() }
            voteLocation = """

                        location = /session/vote {
                            if ($pajama_follower = 0) { return 401 "the relay refused the token\\n"; }
                            limit_except POST { deny all; }
                            client_max_body_size 1k;
                            limit_req zone=pajama_votes burst=40 nodelay;
                            limit_req_status 429;
                            proxy_pass \(upstream)/session/vote;
                            proxy_set_header Authorization "Bearer \(token)";
                            proxy_set_header Cookie "";
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                        }
                """
        }
        var lines = """
            # Written by `pajama relay` (docs/coreading.md, "Relays"); remade at each start.
            load_module \(module);
            daemon off;
            master_process on;
            worker_processes 1;
            # A descriptor for each connection (two for a file passed on to the owner's host): a node started
            # under the usual soft limit of 1,024 would otherwise carry about a thousand followers.
            worker_rlimit_nofile \(workerConnections * 2 + 64);
            pid \(folder)/nginx.pid;
            error_log \(errorLog) warn;
            \(user.map { "user \($0);" } ?? "# workers run as the relay's own user")
            events { worker_connections \(workerConnections); }
            http {
                access_log off;
                server_tokens off;
                client_body_temp_path \(folder)/temp/body;
                proxy_temp_path \(folder)/temp/proxy;
                fastcgi_temp_path \(folder)/temp/fastcgi;
                uwsgi_temp_path \(folder)/temp/uwsgi;
                scgi_temp_path \(folder)/temp/scgi;
                default_type text/plain;
                client_max_body_size 256k;
                # A follower's votes: 20 a second from one address, a burst of 40 (429 past it).
                limit_req_zone $binary_remote_addr zone=pajama_votes:1m rate=20r/s;
                # Each story file is fetched from the owner's host once per node (proxy_cache_lock: one fetch
                # while many ask), then served from here to every follower of this node.
                proxy_cache_path \(folder)/cache levels=1:2 keys_zone=pajama:4m max_size=512m inactive=1d use_temp_path=off;
                # The followers' token, as `Authorization: Bearer T` or `?token=T`; the owner's secret as a bearer.
                map $http_authorization $pajama_bearer { "Bearer \(token)" 1; default 0; }
                map $arg_token $pajama_query { "\(token)" 1; default 0; }
                map "$pajama_bearer$pajama_query" $pajama_follower { "00" 0; default 1; }
                map $http_authorization $pajama_owner { "Bearer \(secret)" 1; default 0; }\(redisUpstream)
                server {
                    # A crowd joining at once (a class, an audience): nginx's 511 dropped the rest of thousands of
                    # connects, whose retries then outlasted the followers' 10 s connect timeout (the kernel caps
                    # this at net.core.somaxconn, 4,096 on Debian 12).
                    listen \(listen) backlog=4096\(usesTLS ? " ssl" : "");

            """
        if let tlsCertificate, let tlsKey {
            lines += """
                        ssl_certificate \(tlsCertificate);
                        ssl_certificate_key \(tlsKey);
                        ssl_protocols TLSv1.2 TLSv1.3;

                """
        }
        lines += """
                    location = \(Self.sessionPath) {
                        if ($pajama_follower = 0) { return 401 "the relay refused the token\\n"; }
                        nchan_subscriber websocket eventsource;
                        # On every answer, refusals included: a follower whose socket was refused and whose question
                        # why was answered 403 or 503 knows a node answered (nchan without its Redis link), not a
                        # server with no session, and tries again.
                        add_header \(Self.relayHeader) 1 always;
                        nchan_channel_id \(channel);
                        # A follower joining late gets the newest message first: the owner's whole state. The
                        # channel keeps one message, so its oldest is its newest: nchan 1.3.6's `-1` (newest)
                        # aborts the worker when a second follower subscribes to a channel with no message yet
                        # (spool.c:479, nchan issue 534), as followers do who join before the owner's first page.
                        nchan_subscriber_first_message oldest;
                        # As the publisher's: a node that has the channel from Redis keeps no more of it.
                        nchan_message_buffer_length 1;
                        nchan_websocket_ping_interval 30;\(redisLine)
                    }
                    location = \(Self.publishPath) {
                        if ($pajama_owner = 0) { return 403 "only the owner publishes\\n"; }
                        nchan_publisher http;
                        nchan_channel_id \(channel);
                        nchan_message_buffer_length 1;
                        nchan_message_timeout 12h;\(redisLine)
                    }
                    location ~ /\\. { return 404 "hidden files are not served\\n"; }\(voteLocation)
                    location / {
                        if ($pajama_follower = 0) { return 401 "the relay refused the token\\n"; }
                        limit_except GET { deny all; }

            """
        if let origin {
            var upstream = origin.absoluteString
            while upstream.hasSuffix("/") { upstream.removeLast() }
            lines += """
                            proxy_pass \(upstream);
                            proxy_set_header Authorization "Bearer \(token)";
                            proxy_set_header Cookie "";
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_cache pajama;
                            proxy_cache_key $uri;
                            proxy_cache_valid 200 1d;
                            proxy_cache_lock on;
                            proxy_cache_lock_timeout 30s;
                            proxy_cache_use_stale error timeout updating;
                            proxy_ignore_headers Cache-Control Expires Set-Cookie Vary;
                            add_header X-Pajama-Cache $upstream_cache_status always;

                """
            if origin.scheme?.lowercased() == "https" {
                lines += """
                                proxy_ssl_server_name on;
                                proxy_ssl_protocols TLSv1.2 TLSv1.3;

                    """
            }
        } else {
            lines += """
                            return 404 "not found: this relay serves no story files (the story is on a web server)\\n";

                """
        }
        // The node's own question, on a socket in its private folder (not reachable from the network): does
        // nchan answer for the channel yet? `start()` waits for it, so a follower joining a node that says it
        // is up is not refused (nchan answers 503 until its Redis link is up, and a plain GET of the session
        // 403, which is how the follower heard it).
        lines += """
                    }
                }
                server {
                    listen unix:\(readinessSocket);
                    location = \(Self.readinessPath) {
                        limit_except GET { deny all; }
                        nchan_publisher http;
                        nchan_channel_id \(channel);
                        nchan_message_buffer_length 1;
                        nchan_message_timeout 12h;\(redisLine)
                    }
                    location / { return 404; }
                }
            }

            """
        return lines
    }
}
