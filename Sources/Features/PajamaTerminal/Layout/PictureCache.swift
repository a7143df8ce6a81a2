import PajamaLoading
import PajamaModel
import PajamaImage

/// Pictures rendered into cells, off the main actor, kept per size and look (colour mode, symbols, backdrop).
///
/// The reader asks it for the page's picture whenever the box the layout gives the picture changes (a new
/// page, a resize); composing a frame then only copies the cells. Bounded: the least recently used
/// renders are dropped beyond `capacity`. Rendering has no suspension point, so two requests for one key
/// never render twice.
public actor PictureCache {
    /// What a render depends on.
    public struct Key: Hashable, Sendable {
        public var path: AssetPath
        public var width: Int
        public var height: Int
        /// Colours, symbols and the backdrop of transparent pixels.
        public var look: PictureLook
        /// The look's colour mode.
        public var mode: PictureColorMode { look.mode }

        /// A key for the picture at `path` in a `width` x `height` box, drawn as `look` says.
        public init(path: AssetPath, width: Int, height: Int, look: PictureLook) {
            self.path = path
            self.width = width
            self.height = height
            self.look = look
        }

        /// A key for the default look of `mode` (block elements, transparent pixels left to chafa).
        public init(path: AssetPath, width: Int, height: Int, mode: PictureColorMode) {
            self.init(path: path, width: width, height: height, look: PictureLook(mode: mode))
        }
    }

    /// Turns an image into a quick draft of its cells, or nil when no draft would be quicker.
    public typealias Draft = @Sendable (StoryImage, _ width: Int, _ height: Int, PictureLook) -> PictureCells?

    /// Turns an image into cells for a box and look (`PictureRenderer.cells` unless a test passes a fake).
    public typealias Render = @Sendable (StoryImage, _ width: Int, _ height: Int, PictureLook) -> PictureCells

    public let capacity: Int
    /// The most bytes of pictures in pixels kept together (a kitty picture at 200x60 is 0.1-2 MB compressed): the
    /// least recently used go first beyond it. Cells cost nothing against it.
    public let pixelByteLimit: Int
    private let renderer: Render
    /// Renders the quick drafts of `draft(for:key:)` (none when nil, or when it returns nil).
    private let drafter: Draft?
    /// Behind a lock the actor's methods share with `resident(_:)`, which answers on the caller's thread.
    private nonisolated let entries: Locked<LRUCache<Key, PictureCells>>
    /// Renders done so far (cache misses).
    public private(set) var renderCount = 0
    /// Drafts done so far.
    public private(set) var draftCount = 0

    /// A cache rendering with `PictureRenderer`, with quick drafts where the final render is slow.
    public init(capacity: Int = 32) {
        self.init(capacity: capacity, render: { PictureRenderer.cells(for: $0, width: $1, height: $2, look: $3) }, draft: { image, width, height, look in
            guard case .bitmap = image, PictureRenderer.hasQuickDraft(look) else { return nil }
            return PictureRenderer.cells(for: image, width: width, height: height, look: look, quick: true)
        })
    }

    /// A cache rendering with `render`, and drafting with `draft` (none when nil, or when it returns nil).
    public init(capacity: Int = 32, pixelByteLimit: Int = 32 << 20, render: @escaping Render, draft: Draft? = nil) {
        self.capacity = max(1, capacity)
        self.pixelByteLimit = max(1, pixelByteLimit)
        entries = Locked(LRUCache(costLimit: self.pixelByteLimit, countLimit: self.capacity))
        renderer = render
        drafter = draft
    }

    /// The cells for `key` if they are cached. Never renders.
    public func cached(_ key: Key) -> PictureCells? { resident(key) }

    /// `cached`, at once on the caller's thread (the reader draws a page's picture in the page's own frame
    /// when its cells are here). Never renders.
    public nonisolated func resident(_ key: Key) -> PictureCells? {
        entries.withLock { $0.value(for: key) }
    }

    /// The cells for `key`: from the cache, or rendered from `image` now and kept.
    public func cells(for image: StoryImage, key: Key) -> PictureCells {
        if let cells = cached(key) { return cells }
        let cells = renderer(image, key.width, key.height, key.look)
        renderCount += 1
        entries.withLock { _ = $0.insert(cells, for: key, cost: cells.pixels?.bytes.count ?? 0) }
        return cells
    }

    /// A quick draft of `key`'s picture to show while its final cells render, or nil: when they are cached
    /// already, or no draft would be quicker (see `PictureRenderer.hasQuickDraft`). Drafts are not kept.
    public func draft(for image: StoryImage, key: Key) -> PictureCells? {
        guard let drafter, resident(key) == nil, let cells = drafter(image, key.width, key.height, key.look) else { return nil }
        draftCount += 1
        return cells
    }

    /// Drops every render of the pictures at `paths` (nil: of every picture): their files changed (`--watch`).
    public func forget(_ paths: Set<AssetPath>?) {
        entries.withLock { entries in
            for key in entries.keys where paths?.contains(key.path) ?? true { _ = entries.removeValue(forKey: key) }
        }
    }

    /// Renders kept now.
    public var count: Int { entries.withLock { $0.count } }
}
