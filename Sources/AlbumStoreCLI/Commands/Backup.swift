import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the library to a file, also while others write to it.",
        discussion: """
            The copy holds every change committed before the backup began; other processes go \
            on writing meanwhile. It is written to a temporary file in DEST's folder and renamed \
            into place, so a failed backup leaves nothing half-written. An existing DEST is \
            replaced only with --force. The copy is a library: open it with --db DEST.

            Examples:
              albumstore backup ~/backups/library-$(date +%F).sqlite
              albumstore backup --force /media/usb/library.sqlite && albumstore check --db /media/usb/library.sqlite
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The file to write the copy to.", valueName: "dest")) var destination: String
    @Flag(help: "Replace DEST when it exists.") var force = false

    func run() throws {
        let library = try store.openLibrary(.readOnly)
        let destination = URL(fileURLWithPath: destination)
        try library.backup(to: destination, overwrite: force)
        inform("Backed up \(library.path) to \(destination.path).")
    }
}
