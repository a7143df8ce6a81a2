import CPulse
import PajamaModel

/// The properties a played sound carries to the server (`pa_context_play_sample_with_proplist`):
/// `media.role=event` (so the server's policy treats it as an event sound), a readable `media.name`,
/// `event.id` = the asset path, and `pajama.story`, `pajama.story.version`, `pajama.asset`.
final class SoundProperties {
    /// The `pa_proplist`, freed with this object.
    let pointer: OpaquePointer

    init(_ key: SoundKey) {
        pointer = pa_proplist_new()
        pa_proplist_sets(pointer, PA_PROP_MEDIA_ROLE, "event")
        pa_proplist_sets(pointer, PA_PROP_MEDIA_NAME, "\(key.storyId): \(key.path.value)")
        pa_proplist_sets(pointer, PA_PROP_EVENT_ID, key.path.value)
        pa_proplist_sets(pointer, "pajama.story", key.storyId)
        pa_proplist_sets(pointer, "pajama.story.version", key.storyVersion ?? "-")
        pa_proplist_sets(pointer, "pajama.asset", key.path.value)
    }

    deinit { pa_proplist_free(pointer) }
}
