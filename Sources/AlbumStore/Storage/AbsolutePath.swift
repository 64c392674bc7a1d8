import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A path made absolute against the working folder, for the CLI's `--db` and for comparing a
/// path with the files of an open library (`OpenLibraries`).
package enum AbsolutePath {
    /// `path` made absolute against the working folder, with the `.` and `..` of a relative path
    /// resolved, as `URL(fileURLWithPath:).path` gives it (a test compares them). By hand: a
    /// `URL` costs every command's start a third of a million instructions.
    package static func of(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        var parts = String(cString: folder).split(separator: "/").map(String.init)
        var rest = path.split(separator: "/", omittingEmptySubsequences: false)
        if rest.last == "" { rest.removeLast() }
        for part in rest {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return "/" + parts.joined(by: "/")
    }
}
