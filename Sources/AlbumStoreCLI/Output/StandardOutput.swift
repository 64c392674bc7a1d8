import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Text for stdout that must reach it or fail the command: written through a sink that reports
/// write errors, where `print` drops them (`albumstore info > /dev/full` would exit 0).
enum StandardOutput {
    /// Writes `text` and a line feed to stdout.
    ///
    /// - Throws: `ByteSinkError` when stdout cannot take it (`.brokenPipe` when its reader went
    ///   away, which the command ends quietly).
    static func writeLine(_ text: String) throws {
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        try stdout.write(text + "\n")
        try stdout.flush()
    }
}
