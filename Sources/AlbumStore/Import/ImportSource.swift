import FoundationEssentials

/// Where an import reads its catalog from.
public enum ImportSource: Sendable, Hashable {
    /// A file, by path.
    case file(String)
    /// The process's standard input, read as a stream.
    case standardInput
    /// Bytes in memory; `name` is what messages call them and what the format is detected from
    /// (`catalog.json`), when given.
    case data(Data, name: String? = nil)

    /// The name messages give the source: the path, `-` for standard input, or the data's name
    /// (`<data>` without one).
    public var displayName: String {
        switch self {
        case .file(let path): path
        case .standardInput: "-"
        case .data(_, let name): name ?? "<data>"
        }
    }
}
