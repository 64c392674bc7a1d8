/// The AlbumStore release this library and the `albumstore` binary belong to.
public enum AlbumStoreVersion {
    public static let current = "0.1.0"
}
