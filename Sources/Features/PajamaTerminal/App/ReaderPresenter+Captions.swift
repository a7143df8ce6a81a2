import PajamaModel

/// Captions of sounds (`c`, remembered in the reader's settings; docs/reader.md, "Captions"): when they are
/// on, the caption of each sound that plays (a page_enter sound's as its page opens, a tap sound's when a tap
/// shows more of the page) is told on the status line, `♪ gulls cry`, until the next key, whether or not
/// sound is on. Sounds without a caption say nothing.
extension ReaderPresenter {
    mutating func toggleCaptions() -> [ReaderEffect] {
        captions.toggle()
        notice = captions ? "captions on" : "captions off"
        return [.setCaptions(captions)]
    }

    /// Tells the captions of the sounds `page` plays on `trigger`, when captions are on and it has any.
    mutating func tellCaptions(of page: Page, _ trigger: SoundTrigger) {
        guard captions else { return }
        let words = page.captions(trigger)
        guard !words.isEmpty else { return }
        notice = "♪ " + words.joined(separator: " · ")
    }
}
