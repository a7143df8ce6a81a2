// swift-tools-version:6.0
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
    ],
    targets: [
        // MARK: C shims (a modulemap and one header each)
        // ncursesw and libpulse headers are in /usr/include; their pkg-config -D flags are refused by SwiftPM.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),

        // MARK: Layers
        .target(name: "PajamaCore"),
        .target(name: "PajamaAudio", dependencies: ["PajamaCore", "CSndfile", "CPulse"]),
        .target(name: "PajamaImage", dependencies: ["PajamaCore", "CPNG", "CChafa"]),
        .target(name: "PajamaTerminal", dependencies: ["PajamaCore", "PajamaImage", "CNcursesw"]),
        .executableTarget(
            name: "pajama",
            dependencies: [
                "PajamaCore", "PajamaAudio", "PajamaImage", "PajamaTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "pajama-bench",
            dependencies: [
                "PajamaCore", "PajamaAudio", "PajamaImage", "PajamaTerminal", "PajamaTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        // Helpers shared by the test targets and the bench: paths, temporary folders, child processes,
        // and the real servers tests start (PulseAudio, HTTP, tmux sessions).
        .target(name: "PajamaTestSupport", dependencies: ["PajamaCore"]),
        .testTarget(name: "PajamaCoreTests", dependencies: ["PajamaCore", "PajamaTestSupport"]),
        .testTarget(name: "PajamaAudioTests", dependencies: ["PajamaAudio", "PajamaCore", "PajamaTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PajamaCore", "PajamaTestSupport"]),
        .testTarget(name: "PajamaTerminalTests", dependencies: ["PajamaTerminal", "PajamaCore", "PajamaTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
