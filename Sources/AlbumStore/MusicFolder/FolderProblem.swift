/// A file or folder of a music folder that an import could not take whole, and why.
public struct FolderProblem: Sendable, Hashable, CustomStringConvertible {
    /// The path, with bytes that are not UTF-8 shown as `\xNN`.
    public var path: String
    public var reason: String
    /// Whether the file was left out (a broken file, an unreadable folder); `false` when it was
    /// imported and only a part was not taken (an embedded picture over the size limit).
    public var isSkipped: Bool

    public init(path: String, reason: String, isSkipped: Bool) {
        self.path = path
        self.reason = reason
        self.isSkipped = isSkipped
    }

    /// `path: reason`, one line.
    public var description: String { "\(path): \(reason)" }
}
