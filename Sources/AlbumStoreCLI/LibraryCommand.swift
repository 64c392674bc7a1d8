/// A command that opens a library: its `StoreOptions` say whether a failure is reported with
/// SQLite's detail (`--verbose`).
///
/// `SendableMetatype`: `main` finds it with a dynamic cast, which must not pick up a
/// main-actor-isolated conformance (the command then runs off the main actor).
protocol LibraryCommand: SendableMetatype {
    var store: StoreOptions { get }
}

extension Init: LibraryCommand {}
extension Info: LibraryCommand {}
extension Add: LibraryCommand {}
extension Edit: LibraryCommand {}
extension Remove: LibraryCommand {}
extension Move: LibraryCommand {}
extension List: LibraryCommand {}
extension Show: LibraryCommand {}
extension Undo: LibraryCommand {}
extension Redo: LibraryCommand {}
extension History: LibraryCommand {}
extension Watch: LibraryCommand {}
extension Check: LibraryCommand {}
extension Backup: LibraryCommand {}
extension Import: LibraryCommand {}
extension Export: LibraryCommand {}
extension State: LibraryCommand {}
extension StateCurrent: LibraryCommand {}
extension StateTabs: LibraryCommand {}
extension StateGet: LibraryCommand {}
extension StateSet: LibraryCommand {}
extension StateUnset: LibraryCommand {}
extension StateTakeSnapshot: LibraryCommand {}
extension StateSnapshots: LibraryCommand {}
extension StateShow: LibraryCommand {}
extension StateDiff: LibraryCommand {}
extension StateRestore: LibraryCommand {}
extension StateRemove: LibraryCommand {}
extension StateExport: LibraryCommand {}
extension StateImport: LibraryCommand {}
