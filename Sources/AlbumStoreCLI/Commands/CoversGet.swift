import AlbumStore
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct CoversGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Write an album's cover to a file or stdout.",
        discussion: """
            The bytes are streamed from the file in chunks. Without -o they go to stdout, which \
            must not be a terminal.

            Examples:
              albumstore covers get 42 -o cover.jpg
              albumstore covers get 42 > cover.jpg
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file.", valueName: "file")) var output: String?

    func run() throws {
        if let output, Self.isFolder(output) {
            throw ValidationError(
                "\(output) is a folder: give a file name (-o \(ShellWord.quoted(output + "/cover.jpg")))"
                    + ", or write every cover into it with `albumstore covers export --dir \(ShellWord.quoted(output))`.")
        }
        let covers = try store.openLibrary(.readOnly).covers
        if let output {
            guard try covers.write(albumID: id, to: URL(fileURLWithPath: output)) != nil else {
                throw CoverError.noCover(albumID: id)
            }
            return
        }
        guard !Terminal.isTerminal(STDOUT_FILENO) else {
            throw ValidationError("Refusing to write image bytes to a terminal: use -o FILE or redirect stdout.")
        }
        let sink = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        guard try covers.read(albumID: id, { try sink.write($0) }) != nil else { throw CoverError.noCover(albumID: id) }
        try sink.flush()
    }

    /// Whether `path` is a folder (or a link to one), where the library could only say that the
    /// file "cannot be written".
    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
