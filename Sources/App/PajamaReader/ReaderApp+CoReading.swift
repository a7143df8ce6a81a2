import FoundationEssentials
import Glibc
import PajamaBasics
import AsyncHTTPClient
import Logging
import NIOSSL
import PajamaAudio
import PajamaCoReading
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP
import PajamaTerminal

/// Which side of a co-reading session a reading session is on.
enum CoReadingSide {
    case host(CoReadingHost)
    /// The connection's events, its welcome already taken; the owner's name; where the follower's votes go,
    /// and the votes the welcome had (nil: the session takes none).
    case follower(AsyncStream<FollowerEvent>.AsyncIterator, owner: String, ballot: FollowerBallot, votes: SessionVotes?)

    /// The reader's role as the session starts.
    var role: ReaderRole {
        switch self {
        case .host(let host): .host(join: host.joinCommand, followers: 0)
        case .follower(_, let owner, _, _): .follower(owner: owner)
        }
    }
}

/// Connects one reading session to its co-reading side for as long as it runs (closed by `close()`).
@MainActor
final class CoReadingWiring {
    private var owner: OwnerLink?
    private var follower: FollowerLink?
    /// The relay node's count of followers to the owner's status line (`pajama host --relay`).
    private var relayCount: Task<Void, Never>?

    init(side: CoReadingSide, viewModel: ReaderViewModel, controller: any ReadingDisplay, content: StoryContentManager) {
        switch side {
        case .host(let host):
            let join = host.joinCommand
            owner = OwnerLink(session: .live(host), viewModel: viewModel) { [weak controller] names in
                controller?.setRole(.host(join: join, followers: names.count))
            } votesChanged: { [weak controller] votes in
                controller?.showVotes(ChoiceVotes(location: votes.location, counts: votes.counts))
            }
            // Through a relay, the followers are the node's (its channel's subscribers, on every node sharing it).
            if let relay = host.relay {
                relayCount = Task { @MainActor [weak controller] in
                    for await count in relay.followingChanges { controller?.setRole(.host(join: join, followers: count)) }
                }
            }
        case .follower(let events, let ownerName, let ballot, let votes):
            controller.onVote = { location, choice in ballot.cast(choice, at: location) }
            if let votes { controller.showVotes(ChoiceVotes(location: votes.location, counts: votes.counts)) }
            follower = FollowerLink(events: events, viewModel: viewModel, storyId: content.manifest.id) { [weak controller] change in
                guard let controller else { return }
                switch change {
                case .followers: break
                case .votes(let votes): controller.showVotes(ChoiceVotes(location: votes.location, counts: votes.counts))
                case .reconnecting(let text), .notice(let text): controller.notice(text)
                case .reconnected: controller.notice("back with \(ownerName)")
                case .ended: controller.sessionEnded()
                case .failed(let text):
                    controller.setRole(.solo)
                    controller.notice(text)
                }
            }
        }
    }

    func close() {
        owner?.close()
        follower?.close()
        relayCount?.cancel()
    }
}

extension ReaderApp {
    /// `pajama host`: opens the story, starts the host, prints the join command, reads; returns the exit code.
    public static func runHost(
        _ argument: String, configuration: CoReadingHost.Configuration, token: String?, options: ReaderOptions, paths: Paths,
        display: ReaderDisplay = .processTerminal
    ) async -> Int32 {
        guard let shown = display.resolve(options) else { return 64 }
        return await withReading(argument, options: options, paths: paths) { session in
            let (source, sound, content) = (session.source, session.sound, session.content)
            let hosted: CoReadingHost.Content
            var format: String?
            var files: [String] = []
            var packageFiles: PackageFileSet?
            if let remote = source as? HTTPStorySource {
                hosted = .url(remote.baseURL)
            } else if let made = source as? any StoryFilesSource {
                // A story made from files of its own (ink, Twine): followers open the same files beside its pictures
                // and sounds, in the same format, and follow its beats.
                files = made.storyFiles
                format = made.formatName
                if let remote = made.base as? HTTPStorySource {
                    hosted = .url(remote.baseURL)
                } else {
                    hosted = .folder(URL(fileURLWithPath: made.base.location))
                    packageFiles = FormatRegistry.all.format(named: made.formatName)
                        .map { FoundStory(format: $0, folder: made.base.location, files: files).packageFiles() }
                }
            } else {
                hosted = .folder(URL(fileURLWithPath: argument))
                packageFiles = FormatRegistry.all.find(at: argument)?.packageFiles()
            }
            // Refused requests go to the reader's log file (the screen is the reader's while hosting).
            let host = CoReadingHost(content: hosted, storyId: content.manifest.id, storyVersion: content.manifest.version, format: format,
                                     files: files, packageFiles: packageFiles, configuration: configuration, token: token,
                                     log: { PajamaLog.coreading.warning("\($0)") })
            do {
                _ = try await host.start()
            } catch {
                printError("pajama: \(error)")
                return 2
            }
            if !host.isLoopback {
                printError("pajama: listening on \(configuration.bind): anyone who can reach this machine on port \(host.port) and has the token can follow")
            }
            if let warning = host.certificateWarning { printError("pajama: warning: \(warning)") }
            printError(host.joinCommand)
            PajamaLog.coreading.info("hosting \(content.manifest.id) on \(host.joinURL)")
            // A quit signal ends the reading as `q` does: progress saved, the followers told, the terminal restored.
            let outcome = await shown.present(options: options, paths: paths) { screen in
                await read(content, screen: screen, sound: sound, start: nil, restart: false, options: options, paths: paths,
                           coReading: .host(host))
            } plain: { signals, input in
                await readPlain(content, signals: signals, sound: sound, start: nil, restart: false, options: options, paths: paths,
                                coReading: .host(host), input: input)
            }
            // After `q` the story's files are still served to the followers still connected, so they read on alone;
            // a quit signal (Ctrl-C, SIGTERM, a closed terminal: stop now) stops the host at once.
            let servingOn: AsyncStream<Int>
            if case .signal = outcome {
                await host.end()
                servingOn = AsyncStream { $0.finish() }
            } else {
                servingOn = await host.endServingOn()
            }
            // The reading's resources go now; the host serves its files on for the followers still reading.
            await session.close()
            let stopped = await serveOn(host, followers: servingOn, limit: configuration.limits.servingAfterEnd, trapsSignals: !shown.isHeadless)
            return ScreenSession.exitCode(stopped.map { .signal($0) } ?? outcome)
        }
    }

    /// After the owner quit: the host goes on serving the story to the followers still connected, said on
    /// the terminal (standard error), until the last one leaves, `limit` passes, or a quit signal (Ctrl-C)
    /// stops it. Returns that signal's number, if one came. On a headless display no signal is trapped (the
    /// process is not the reader's: a test's), as while it read.
    static func serveOn(_ host: CoReadingHost, followers counts: AsyncStream<Int>, limit: Duration, trapsSignals: Bool = true) async -> Int32? {
        let signals = QuitSignals()
        if trapsSignals { await signals.start() }
        defer { signals.stop() }
        signals.onSignal = { Task { await host.end() } }
        let minutes = Int(limit.components.seconds / 60)
        let span = minutes >= 1 ? "\(minutes) minute\(minutes == 1 ? "" : "s")" : "\(limit.components.seconds) s"
        let end = Date().addingTimeInterval(TimeInterval(limit.components.seconds))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = LocalTime.zone(at: end)
        let clock = calendar.dateComponents([.hour, .minute], from: end)
        let until = cFormat("%02ld:%02ld", clock.hour ?? 0, clock.minute ?? 0)
        func followers(_ count: Int) -> String { count == 1 ? "1 follower" : "\(count) followers" }
        var shown: Int?
        var last = 0
        for await count in counts {
            last = count
            guard count > 0, count != shown else { continue }
            let who = followers(count)
            if shown == nil {
                printError("pajama: \(who) still reading: serving them the story until they leave, at most \(span) (until \(until)); Ctrl-C stops now")
            } else {
                printError("pajama: \(who) still reading")
            }
            shown = count
        }
        guard shown != nil else { return signals.received }
        if signals.received != nil {
            printError("pajama: stopped serving the story (\(followers(last)) still reading)")
        } else if last == 0 {
            printError("pajama: the last follower left; stopped serving the story")
        } else {
            printError("pajama: stopped serving the story after \(span) (\(followers(last)) still reading)")
        }
        return signals.received
    }

    /// `pajama join`: connects, opens the host's story where the owner is, follows; returns the exit code.
    public static func runFollower(
        _ url: URL, token: String, name: String, fingerprint: String?, ca: String? = nil, options: ReaderOptions, paths: Paths,
        display: ReaderDisplay = .processTerminal
    ) async -> Int32 {
        guard let shown = display.resolve(options) else { return 64 }
        // An https:// host: its certificate checked (by its fingerprint, a private authority, or the system's authorities)
        // before the token is sent.
        var tls: TLSConfiguration?
        if url.scheme?.lowercased() == "https" {
            do {
                tls = try await FollowerTLS.configuration(for: url, fingerprint: fingerprint, ca: ca)
            } catch {
                printError("pajama: \(error)")
                return 2
            }
        }
        let client = tls.map { HTTPStorySource.makeClient(tls: $0) }
        defer { if let client { Task { try? await client.shutdown() } } }
        let ballot = FollowerBallot()
        let wait = JoinWait(events: FollowerConnection.connect(to: url, token: token, name: name, tls: tls, client: client, ballot: ballot),
                            url: url)
        // The wait for the host, the story's opening and the reading are on the same display: the wait says what
        // it waits for and `q` stops it; a problem is said once the terminal is back.
        let end = await shown.present(options: options, paths: paths) { screen -> Joined in
            await joined(wait.first(on: screen), wait: wait, url: url, token: token, client: client, ballot: ballot, options: options,
                         paths: paths) { content, side in
                await read(content, screen: screen, sound: side.sound, start: side.start, restart: false, options: options,
                           paths: paths, coReading: side.coReading)
            }
        } plain: { signals, input -> Joined in
            await joined(wait.first(signals: signals, write: writePlain), wait: wait, url: url, token: token, client: client, ballot: ballot,
                         options: options, paths: paths) { content, side in
                await readPlain(content, signals: signals, sound: side.sound, start: side.start, restart: false, options: options,
                                paths: paths, coReading: side.coReading, input: input)
            }
        }
        switch end {
        case .read(let outcome): return ScreenSession.exitCode(outcome)
        case .stopped(let signal): return signal.map { 128 + $0 } ?? 0
        case .failed(let message):
            printError("pajama: \(message)")
            return 2
        }
    }

    /// How a join ended.
    enum Joined {
        /// Followed, then quit (or a quit signal).
        case read(ReaderController.Outcome)
        /// Never joined: the reader stopped the wait (`q`, or this quit signal).
        case stopped(Int32?)
        /// Never joined, or could not follow: why (said once the terminal is back).
        case failed(String)
    }

    /// Where a follower's reading starts and what drives it.
    struct FollowerStart {
        let sound: PulseSoundEngine?
        let start: StoryLocation?
        let coReading: CoReadingSide
    }

    /// After the wait: the welcome opens the host's story, checked to be the host's, and `reading` reads it
    /// (its package fetched behind); any other first event ends the join, saying why.
    private static func joined(
        _ waited: JoinWait.End, wait: JoinWait, url: URL, token: String, client: HTTPClient?, ballot: FollowerBallot, options: ReaderOptions,
        paths: Paths,
        reading: @MainActor (StoryContentManager, FollowerStart) async -> ReaderController.Outcome
    ) async -> Joined {
        let welcome: SessionWelcome
        let storyURL: URL
        switch waited {
        case .stopped(let signal): return .stopped(signal)
        case .event(.welcome(let first, let at)?):
            welcome = first
            storyURL = at
        case .event(.failed(let error)?): return .failed("\(error)")
        case .event(.ended(let owner)?): return .failed("\(owner) ended the session")
        case .event: return .failed("the host at \(url.absoluteString) closed the session before it began")
        }
        guard let events = wait.iterator else { return .failed("the host at \(url.absoluteString) closed the session before it began") }
        // The token goes only to the host itself, never to a web server or CDN the story is on.
        let sameOrigin = storyURL.scheme == url.scheme && storyURL.host == url.host && storyURL.port == url.port
        let package = HTTPStorySource(baseURL: storyURL, client: sameOrigin ? client ?? HTTPStorySource.defaultClient : HTTPStorySource.defaultClient,
                                      authorization: sameOrigin ? "Bearer \(token)" : nil)
        let source = StorySources.made(base: package, format: welcome.story.format, files: welcome.story.files)
        let sound = makeSound(options, paths: paths)
        let content: StoryContentManager
        do {
            content = try await open(source, sound: sound, paths: paths)
        } catch {
            if let sound { await sound.shutdown() }
            return .failed("cannot open the host's story at \(storyURL.absoluteString): \(error)")
        }
        let session = ReadingSession(source: source, sound: sound, content: content)
        let end = await follow(welcome, events: events, ballot: ballot, content: content, sound: sound, storyURL: storyURL, package: package,
                               sameOrigin: sameOrigin, paths: paths, reading: reading)
        await session.close()
        return end
    }

    /// A follower's reading once its story is open: checked to be the host's, read, its package fetched behind.
    private static func follow(
        _ welcome: SessionWelcome, events: AsyncStream<FollowerEvent>.Iterator, ballot: FollowerBallot, content: StoryContentManager,
        sound: PulseSoundEngine?,
        storyURL: URL, package: HTTPStorySource, sameOrigin: Bool, paths: Paths,
        reading: @MainActor (StoryContentManager, FollowerStart) async -> ReaderController.Outcome
    ) async -> Joined {
        guard content.manifest.id == welcome.story.id else {
            return .failed("the story at \(storyURL.absoluteString) is \"\(content.manifest.id)\", the host reads \"\(welcome.story.id)\"")
        }
        // The host's own files are fetched in the background (a package up to 64 MB whole), so reading on alone
        // after the owner quits reaches every beat; a story on a web server stays there and is not fetched.
        let download = sameOrigin
            ? PackageDownload(source: package, disk: DiskCache(root: paths.cache), storyId: content.manifest.id,
                              version: content.manifest.version, skipping: Set(welcome.story.files))
            : nil
        defer { download?.cancel() }
        // An ink story: the owner's beat is made from the owner's seed and state before the reader enters it.
        if let sync = welcome.beat, case .failed(let reason) = await content.restore(sync.origin) {
            return .failed("cannot follow the owner's ink story: \(reason)")
        }
        return .read(await reading(content, FollowerStart(sound: sound, start: welcome.location, coReading: .follower(events, owner: welcome.owner, ballot: ballot,
                                                                                                         votes: welcome.votes))))
    }
}
