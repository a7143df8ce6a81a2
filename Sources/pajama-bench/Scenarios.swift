/// Every scenario, in the order `make bench` runs them.
enum Scenarios {
    static let all: [any Scenario] = [
        DecodeScenario(),
        BeatLoadScenario(),
        PageTurnScenario(),
        PreloadScenario(),
        AssetRaceScenario(),
        StartupScenario(),
        MemoryScenario(),
        SoundScenario(),
        CoReadingScenario(),
    ]
}
