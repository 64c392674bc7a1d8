/// What restoring a snapshot did.
public struct SessionRestore: Sendable, Hashable {
    /// The snapshot restored.
    public var name: String
    /// The items whose values changed (the only ones observers hear about), in `SessionItem` order.
    public var changed: [SessionItem]
    /// The current album as it now reads back (`nil` when none is saved or the library is
    /// empty). When `isSavedAlbum` is false, the snapshot's album no longer exists and its index
    /// was clamped.
    public var currentAlbum: ResolvedCurrentAlbum?
}
