// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Pajama",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pajama", targets: ["pajama"]),
        .executable(name: "pajama-bench", targets: ["pajama-bench"]),
    ],
    dependencies: [
        // Command-line parsing for `pajama` and `pajama-bench`: subcommands, help and errors for free.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The HTTP client of remote stories (PajamaHTTP): streaming bodies (the size limit and progress while
        // receiving), gzip/deflate, one shared connection pool, and cancellation that reaches the request;
        // it replaces URLSession, whose Linux port needed a hand-written delegate with locks.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The in-process HTTP server of the tests and the bench (PajamaTestSupport): rate limits, stalls,
        // statuses, Range and ETag per test, without a Python child process. Traits off: no
        // swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // The reader's log (a file under the XDG state folder, since ncurses owns the screen; see PajamaStorage's
        // FileLogHandler) and Hummingbird's logger, silenced in the test server (already a dependency of both
        // packages above).
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Deque for the one LRU of the caches (O(1) touch and evict, see LRUCache); already pulled in by SwiftNIO.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Co-reading (PajamaCoReading): the host's WebSocket at /session on the same Hummingbird server that
        // serves the story package, and the follower's WebSocket client (WSClient). Both are the Hummingbird
        // project's own WebSocket layers, on the SwiftNIO we already build.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // The quit signals (INT, TERM, HUP) as one AsyncSequence (`UnixSignals`) instead of a global slot set
        // by a C handler: the screen's reader loop is woken by a task that owns the sequence.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // One virtual clock for the tests (`TestClock`) instead of a hand-written one: retry pauses, debounces
        // and timeouts are tested without sleeping. Tests only.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        // Co-reading over TLS: swift-nio-ssl (BoringSSL) is already built for async-http-client; HummingbirdTLS
        // (in the hummingbird package above) puts it under the host's own channel. The session's own certificate
        // (`pajama host --tls-self-signed`) is made in process through the system's libcrypto (CCertificate),
        // so a host across a network needs neither a proxy nor the openssl command; its fingerprint (SHA-256)
        // is what `pajama join --fingerprint` checks.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Direct for PajamaHTTP: telling a refused connection or an unknown host from other failures (already in the graph).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Tests only: writes the .zip archives PajamaInstallTests install (stored, deflated, hostile). The product
        // reads archives with its own ZipArchive on zlib: ZIPFoundation imports Foundation, and with it ICU's
        // 34 MB of data (docs/install.md, "Size").
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        // MARK: C shims (a modulemap and one header each)
        // ncursesw and libpulse headers are in /usr/include; their pkg-config -D flags are refused by SwiftPM.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // JPEG through libjpeg-turbo: a C target, not a system library, since libjpeg reports errors by
        // longjmp, which Swift cannot catch (its one .c file owns the setjmp).
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        // zlib's compress2, for kitty pictures sent compressed (o=z); Foundation has no zlib API on Linux (named
        // CDeflate: ZIPFoundation's own zlib module is CZlib).
        .systemLibrary(name: "CDeflate", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Read aloud: espeak-ng synthesises in process, to PCM that plays through PajamaAudio's own stream.
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        // SugarCube stories' JavaScript (PajamaSugarCube): JavaScriptCore's C API, chosen by measuring against
        // Duktape and MuJS (docs/sugarcube.md, "Which engine"); its shim declares the execution time limit.
        .systemLibrary(name: "CJavaScriptCore", pkgConfig: "javascriptcoregtk-4.1", providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
        // pajama-bench only: counts the process's heap allocations (replaces glibc's malloc family in that
        // executable, forwarding to glibc), for the allocations a sound tap costs (issue 14).
        .target(name: "CAllocCount"),
        // Certificates (the host's self-signed one, the TLS tests' private authority) and SHA-256 through the
        // system's OpenSSL libcrypto, instead of swift-crypto + swift-certificates, which build their own
        // BoringSSL and ASN.1 stack (72 s of a clean build on 2 cores) for these three calls. NIOSSL's BoringSSL
        // is symbol-prefixed (CNIOBoringSSL_), so the two never clash.
        .target(name: "CCertificate", linkerSettings: [.linkedLibrary("crypto")]),
        // The test support's child processes: posix_spawn's "close every inherited descriptor" (glibc's
        // posix_spawn_file_actions_addclosefrom_np, not declared by Swift's Glibc module).
        .target(name: "CSpawn"),
        // pajama-bench's crowd of bare sockets (FrameCrowd): epoll, which Swift's Glibc module does not declare.
        .target(name: "CEpoll"),
        // The reader's crash handler (TerminalGuard): C, so the handler calls only async-signal-safe functions.
        .target(name: "CCrashGuard"),

        // MARK: Layers
        // What Foundation gave the product and FoundationEssentials does not (trimming, C formatting, error
        // text, path arithmetic, percent-encoding, natural order, standard error, threads, time zones): the
        // product's modules import FoundationEssentials, so the binary carries no ICU (docs/install.md, "Size").
        .target(name: "PajamaBasics"),
        // The core, in four layers (docs/architecture.md). The model: a story, its beats, pages and assets as
        // values, Pajama's format decoded and validated, the `StorySource` a format implements; no file
        // system, no network, no clock. What pictures, sounds and formats need.
        .target(name: "PajamaModel", dependencies: ["PajamaBasics", "PajamaJSON"]),
        // Files and what is saved: the atomic write (RecordWriter), progress, bookmarks, settings, the log,
        // the XDG paths, the library's folders and their watching.
        .target(
            name: "PajamaStorage",
            dependencies: ["PajamaBasics", "PajamaJSON", "PajamaModel", .product(name: "Logging", package: "swift-log")]
        ),
        // The loading engine: StoryContentManager, the storage tiers and their caches, the preloaders, retries,
        // a folder as a story source.
        .target(
            name: "PajamaLoading",
            dependencies: [
                "PajamaBasics", "PajamaJSON", "PajamaModel", "PajamaStorage",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The reading: the navigator (ReaderViewModel), its history and record, the page visit, the
        // transcript, read-aloud.
        .target(name: "PajamaReading", dependencies: ["PajamaBasics", "PajamaModel", "PajamaStorage", "PajamaLoading"]),
        // The format seam (docs/architecture.md): the `StoryFormat` protocol every format implements, the
        // `FormatRegistry` that asks them in order, and Pajama's own package format. No format module.
        .target(name: "PajamaStoryFormat", dependencies: ["PajamaBasics", "PajamaLoading", "PajamaModel"]),
        // The registry's list (every format the program reads) and opening a story argument with it, locally or
        // over HTTP: the one module besides the executables that imports the formats. A new format is its
        // own targets, one line in `FormatRegistry.all` and one dependency here.
        .target(
            name: "PajamaFormats",
            dependencies: ["PajamaBasics", "PajamaStoryFormat", "PajamaModel", "PajamaHTTP", "PajamaInkBridge", "PajamaTwineBridge", "PajamaChoiceScriptBridge", "PajamaSugarCubeBridge"]
        ),
        // Remote stories over HTTP; kept out of the core's layers so they import no networking. Knows no format.
        .target(
            name: "PajamaHTTP",
            dependencies: [
                "PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaStorage", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "PajamaAudio",
            dependencies: ["PajamaBasics", "PajamaModel", "PajamaStorage", "CSndfile", "CPulse", "CEspeakNG", .product(name: "Logging", package: "swift-log")]
        ),
        // Co-reading: the session (a pure state synchroniser), its JSON messages, the host server and the
        // follower client; no terminal code.
        .target(
            name: "PajamaCoReading",
            dependencies: [
                "PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaStoryFormat", "PajamaHTTP", "PajamaJSON", .product(name: "Hummingbird", package: "hummingbird"),
                // A relay node's nginx, started bound to the relay's life (pajama_spawn_bound: PR_SET_PDEATHSIG).
                "CSpawn",
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The follower's check of a host's certificate awaits the handshake's end (`TLSUserEvent`).
                .product(name: "NIOTLS", package: "swift-nio"),
                // The host's self-signed certificate and SHA-256, from the system's libcrypto.
                "CCertificate",
                // The follower asks the host over plain HTTP why a socket was refused (401: the token), with the
                // process's one client (PajamaHTTP's `HTTPStorySource.defaultClient`).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(name: "PajamaImage", dependencies: ["PajamaBasics", "PajamaModel", "CPNG", "CJPEG", "CWebP", "CGIF", "CChafa", "CDeflate"]),
        .target(
            name: "PajamaTerminal",
            dependencies: [
                "PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaStoryFormat", "PajamaImage", "PajamaJSON", "CNcursesw", "CCrashGuard",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // `pajama install-story` / `uninstall-story`: a story package (folder, .zip, ink file, URL) copied into the
        // reader's stories folder after validation; untrusted content never leaves its staging folder.
        .target(
            name: "PajamaInstall",
            dependencies: ["PajamaBasics", "PajamaModel", "PajamaStoryFormat", "PajamaHTTP", "CDeflate"]
        ),
        // The one JSON parser, writer and Codable coder (`JSONValueEncoder`/`JSONValueDecoder`) of everything the
        // program reads or writes as JSON: stories, ink, settings, progress, bookmarks, themes, co-reading messages.
        // Strict, line and column in its parse errors, the field's path in its type errors; pure Swift, no
        // dependencies (not even Foundation). No Foundation JSON (JSONEncoder, JSONSerialization) in Sources/.
        .target(name: "PajamaJSON"),
        // An ink runtime (compiled ink JSON, versions 19-21): pure Swift, nothing but PajamaJSON (docs/ink.md).
        .target(name: "PajamaInk", dependencies: ["PajamaBasics", "PajamaJSON"], swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Paging for every interpreted format: a story's lines, with their tags and HTML-like markup, into pages
        // (text, pictures, sounds, choices); no format of its own (docs/architecture.md).
        .target(name: "PajamaPaging", dependencies: ["PajamaBasics", "PajamaModel"]),
        // The ink bridge: an ink story read as a story source (pages, pictures and sounds from its lines and tags),
        // its validation and its file detection; kept out of the core's layers as HTTP is, so the core knows no ink.
        .target(name: "PajamaInkBridge", dependencies: ["PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaStorage", "PajamaStoryFormat", "PajamaPaging", "PajamaInk", "PajamaJSON"]),
        // Twine stories (Twee 3 and published HTML) and a Harlowe 3 interpreter: pure Swift, Foundation and PajamaJSON (docs/twine.md).
        .target(name: "PajamaTwine", dependencies: ["PajamaBasics", "PajamaJSON"]),
        // A SugarCube 2 runtime on PajamaTwine's parser: its markup and macros, its state and history, and its
        // JavaScript in JavaScriptCore (docs/sugarcube.md). No core layer.
        .target(name: "PajamaSugarCube", dependencies: ["PajamaBasics", "PajamaTwine", "PajamaJSON", "CJavaScriptCore"]),
        // The SugarCube bridge: a SugarCube story read as a story source (passages as beats, paged by
        // PajamaPaging), its validation and its file detection.
        .target(
            name: "PajamaSugarCubeBridge",
            dependencies: ["PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaStoryFormat", "PajamaPaging", "PajamaSugarCube", "PajamaTwine", "PajamaTwineBridge", "PajamaJSON"]
        ),
        // The Twine bridge: a Twine story read as a story source (passages as beats, paged by PajamaPaging),
        // its validation and its file detection, beside the ink bridge.
        .target(name: "PajamaTwineBridge", dependencies: ["PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaStorage", "PajamaStoryFormat", "PajamaTwine", "PajamaPaging", "PajamaJSON"]),
        // ChoiceScript games (a scenes folder of .txt files) and an interpreter with ChoiceScript's own semantics:
        // pure Swift, no core layer (docs/choicescript.md).
        .target(name: "PajamaChoiceScript", dependencies: ["PajamaBasics"]),
        // The ChoiceScript bridge: a game read as a story source (a stop of the interpreter is a beat, paged by PajamaPaging).
        .target(name: "PajamaChoiceScriptBridge", dependencies: ["PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaStorage", "PajamaStoryFormat", "PajamaChoiceScript", "PajamaPaging", "PajamaJSON"]),
        // Plays an ink story with PajamaInk and prints a JSON-lines transcript for the differential tests
        // against the reference runtime (scripts/ink-bink.sh); not for readers.
        // `pajama test`: random runs and an exhaustive walk of a story in any format, through its StorySource,
        // and the report (endings, coverage, problems with their replays; text, JSON, JUnit). docs/testing.md.
        .target(name: "PajamaStoryTest", dependencies: ["PajamaBasics", "PajamaModel", "PajamaStoryFormat"]),
        .executableTarget(name: "pajama-ink-play", dependencies: ["PajamaInk", "PajamaJSON"]),
        // The reader's wiring (docs/architecture.md): a story, the library, a host's and a follower's reading opened
        // and shown on the process's terminal (full screen or plain) or on a `HeadlessTerminal`, with their checks,
        // sound, progress and co-reading side; the executable's commands parse their arguments and call it. A
        // library, so the reader's scenarios run in process (PajamaReaderTests) as they run in `pajama`.
        .target(
            name: "PajamaReader",
            dependencies: [
                "PajamaBasics", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaStoryFormat", "PajamaFormats", "PajamaHTTP", "PajamaAudio", "PajamaImage", "PajamaTerminal",
                "PajamaCoReading", .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "pajama",
            dependencies: [
                "PajamaBasics", "PajamaReader",
                "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaStoryFormat", "PajamaFormats", "PajamaInkBridge", "PajamaTwineBridge", "PajamaHTTP", "PajamaAudio", "PajamaJSON",
                "PajamaImage", "PajamaTerminal", "PajamaCoReading", "PajamaInstall", "PajamaStoryTest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The bench, with its measuring tools (Measuring/: a sink recorder and a stream-per-play baseline,
        // which talk to libpulse directly).
        .executableTarget(
            name: "pajama-bench",
            dependencies: [
                "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaHTTP", "PajamaAudio", "PajamaImage", "PajamaTerminal", "PajamaTestSupport", "CPulse",
                "PajamaCoReading", "CAllocCount", "CEpoll",
                "PajamaInk", "PajamaInkBridge", "PajamaJSON", "PajamaTwine", "PajamaTwineBridge", "PajamaStoryFormat", "PajamaFormats",
                "PajamaChoiceScript", "PajamaChoiceScriptBridge", "PajamaSugarCube", "PajamaSugarCubeBridge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        // Helpers shared by the test targets and the bench: paths, temporary folders, child processes,
        // and the real servers tests start (PulseAudio, HTTP, tmux sessions).
        .target(
            name: "PajamaTestSupport",
            dependencies: [
                "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "CSpawn", "CDeflate", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // Waiting for a task to sleep on the tests' virtual clock (TestClock+Sleepers).
                .product(name: "Clocks", package: "swift-clocks"),
                // The test web server stops gracefully (a cancelled server can trap in NIO: TestHTTPServer.stop).
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The core's layers, each with its own tests (a story read through the ink bridge or over the test
        // HTTP server where that is the real path).
        .testTarget(
            name: "PajamaModelTests",
            dependencies: ["PajamaModel", "PajamaInkBridge", "PajamaTwineBridge", "PajamaPaging", "PajamaHTTP", "PajamaFormats", "PajamaTestSupport"]
        ),
        .testTarget(
            name: "PajamaStorageTests",
            dependencies: ["PajamaStorage", "PajamaModel", "PajamaTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "PajamaLoadingTests",
            dependencies: [
                "PajamaLoading", "PajamaModel", "PajamaInkBridge", "PajamaHTTP", "PajamaFormats", "PajamaTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "PajamaReadingTests",
            dependencies: [
                "PajamaReading", "PajamaLoading", "PajamaStorage", "PajamaModel", "PajamaInkBridge", "PajamaHTTP", "PajamaFormats", "PajamaPaging",
                "PajamaTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        // The HTTP source against the in-process server: statuses, faults, limits, unreachable hosts, URLs.
        .testTarget(
            name: "PajamaHTTPTests",
            dependencies: ["PajamaHTTP", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaTestSupport", .product(name: "Clocks", package: "swift-clocks")]
        ),
        .testTarget(name: "PajamaAudioTests", dependencies: ["PajamaAudio", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PajamaModel", "PajamaStorage", "PajamaHTTP", "PajamaTestSupport"]),
        .testTarget(
            name: "PajamaCoReadingTests",
            dependencies: [
                "PajamaCoReading", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStoryFormat", "PajamaFormats", "PajamaInkBridge", "PajamaHTTP", "PajamaTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(name: "PajamaTerminalTests", dependencies: ["PajamaTerminal", "PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaPaging", "PajamaInkBridge", "PajamaFormats", "PajamaTestSupport"]),
        // The pager: tags, markup and the page rules every interpreted format shares.
        .testTarget(name: "PajamaPagingTests", dependencies: ["PajamaPaging", "PajamaModel"]),
        // `pajama test`: random runs, the exhaustive walk and the reports, on small stories of every format made for it.
        .testTarget(name: "PajamaStoryTestTests", dependencies: ["PajamaStoryTest", "PajamaStoryFormat", "PajamaFormats", "PajamaJSON", "PajamaTestSupport"]),
        // The format seam: which format a path, a URL or a welcome is, locally and over a real HTTP server.
        .testTarget(name: "PajamaBasicsTests", dependencies: ["PajamaBasics"]),
        .testTarget(
            name: "PajamaFormatsTests",
            dependencies: ["PajamaFormats", "PajamaStoryFormat", "PajamaLoading", "PajamaModel", "PajamaHTTP", "PajamaInkBridge", "PajamaTwineBridge", "PajamaTestSupport"]
        ),
        // The reader's scenarios in process: `ReaderApp` on a `HeadlessTerminal`, with the story, its files and
        // what is saved as `pajama` has them (the ones that need a real terminal stay in EndToEndTests, on tmux).
        .testTarget(
            name: "PajamaReaderTests",
            dependencies: ["PajamaReader", "PajamaTerminal", "PajamaModel", "PajamaStorage", "PajamaLoading", "PajamaReading", "PajamaFormats",
                           "PajamaCoReading", "PajamaTestSupport"]
        ),
        .testTarget(name: "PajamaInkTests", dependencies: ["PajamaInk", "PajamaJSON"]),
        .testTarget(name: "PajamaJSONTests", dependencies: ["PajamaJSON"]),
        .testTarget(
            name: "PajamaSugarCubeTests",
            dependencies: [
                "PajamaSugarCube", "PajamaSugarCubeBridge", "PajamaTwine", "PajamaFormats", "PajamaStoryFormat", "PajamaStoryTest", "PajamaLoading", "PajamaModel", "PajamaJSON",
                "PajamaTestSupport",
            ]
        ),
        .testTarget(name: "PajamaTwineTests", dependencies: ["PajamaTwine", "PajamaTwineBridge", "PajamaLoading", "PajamaModel", "PajamaJSON", "PajamaTestSupport"]),
        .testTarget(
            name: "PajamaChoiceScriptTests",
            dependencies: ["PajamaChoiceScript", "PajamaChoiceScriptBridge", "PajamaModel", "PajamaStoryFormat", "PajamaFormats", "PajamaJSON", "PajamaTestSupport"]),
        // The picture decoders on the committed fixtures of Tests/Fixtures/pictures (scripts/make-picture-fixtures.py).
        .testTarget(name: "PajamaImageTests", dependencies: ["PajamaImage", "PajamaModel", "PajamaTestSupport"]),
        .testTarget(
            name: "PajamaInstallTests",
            dependencies: [
                "PajamaInstall", "PajamaModel", "PajamaFormats", "PajamaInkBridge", "PajamaTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: Fuzzing (docs/security.md, "Fuzzing"; scripts/fuzz.sh, `make fuzz`)
// PajamaFuzz holds one `fuzzOne(bytes)` per target over the real decoders (the session codec's in
// PajamaFuzzSession, which needs PajamaCoReading); the one `pajama-fuzz TARGET` executable runs one under
// libFuzzer when built with `-sanitize=fuzzer,address -DFUZZING`, and replays files without the flag.
package.targets += [
    .target(name: "PajamaFuzz", dependencies: ["PajamaLoading", "PajamaModel", "PajamaReading", "PajamaStorage", "PajamaImage", "PajamaAudio", "PajamaTerminal"]),
    .target(name: "PajamaFuzzSession", dependencies: ["PajamaFuzz", "PajamaCoReading"]),
    .testTarget(name: "PajamaFuzzTests", dependencies: ["PajamaFuzz", "PajamaFuzzSession", "PajamaTestSupport"]),
    .executableTarget(name: "pajama-fuzz", dependencies: ["PajamaFuzz", "PajamaFuzzSession"]),
]

// MARK: Sources/ on disk, by layer (docs/architecture.md, "The layers")
// Each library and executable target lives in Sources/<layer>/<target>, so the folder tree shows the layers;
// a target missing from this table stops the manifest here, not in a build that finds no sources.
let layers: [(folder: String, targets: [String])] = [
    ("Shims", ["CNcursesw", "CSndfile", "CPulse", "CPNG", "CJPEG", "CWebP", "CGIF", "CChafa", "CDeflate", "CEspeakNG", "CJavaScriptCore", "CAllocCount", "CSpawn", "CEpoll", "CCrashGuard", "CCertificate"]),
    ("Core", ["PajamaBasics", "PajamaJSON", "PajamaModel", "PajamaStorage", "PajamaLoading", "PajamaReading"]),
    ("Seam", ["PajamaStoryFormat", "PajamaPaging"]),
    ("Features", ["PajamaHTTP", "PajamaImage", "PajamaAudio", "PajamaTerminal", "PajamaCoReading", "PajamaInstall", "PajamaStoryTest"]),
    ("Formats", [
        "PajamaInk", "PajamaInkBridge", "PajamaTwine", "PajamaTwineBridge", "PajamaSugarCube", "PajamaSugarCubeBridge", "PajamaChoiceScript",
        "PajamaChoiceScriptBridge", "PajamaFormats",
    ]),
    ("App", ["PajamaReader"]),
    ("Executables", ["pajama", "pajama-bench", "pajama-ink-play", "pajama-fuzz"]),
    ("Support", ["PajamaTestSupport", "PajamaFuzz", "PajamaFuzzSession"]),
]
for target in package.targets where target.type != .test {
    guard let layer = layers.first(where: { $0.targets.contains(target.name) }) else {
        fatalError("Package.swift: target \(target.name) has no layer in `layers` (Sources/<layer>/\(target.name))")
    }
    target.path = "Sources/\(layer.folder)/\(target.name)"
}
