/// Every scenario, in the order `make bench` runs them.
enum Scenarios {
    static let all: [any Scenario] = [
        DecodeScenario(),
        BeatLoadScenario(),
        PageTurnScenario(),
        KeyToGlassScenario(),
        PreloadScenario(),
        AssetRaceScenario(),
        PictureScenario(),
        PixelPictureScenario(),
        StartupScenario(),
        PlayScenario(),
        MemoryScenario(),
        SoundScenario(),
        CoReadingScenario(),
        CoReadingCrowdScenario(),
        RelayCrowdScenario(),
        InkScenario(),
        InkPathScenario(),
        StoryTestScenario(),
        TwineScenario(),
        ChoiceScriptScenario(),
        SugarCubeScenario(),
    ]
}
