extension Library {
    /// The AlbumStore release this library and the `albumstore` binary belong to.
    public static let version = "0.1.0"
}
