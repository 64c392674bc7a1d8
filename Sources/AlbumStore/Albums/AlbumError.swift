/// Why an album operation was refused. Nothing was changed.
public enum AlbumError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A field's value is not acceptable.
    case invalid(field: String, reason: String)
    /// An index outside `valid` (`nil` when no index is valid: the library is empty). `valid`
    /// counts from the front; its negative twin, counting from the end, is valid too.
    case indexOutOfRange(index: Int, valid: ClosedRange<Int>?)
    /// No album has this id (it was never added, or was deleted).
    case notFound(id: Album.ID)
    /// Another album already has this external id.
    case duplicateExternalID(String, existing: Album.ID)
    /// Other writers changed the album each time an edit was about to be saved.
    case changedDuringEdit(id: Album.ID, attempts: Int)

    /// The refusal in one line, naming the field, index or album.
    public var description: String {
        switch self {
        case let .invalid(field, reason):
            "\(field): \(reason)"
        case let .indexOutOfRange(index, valid?):
            "index \(index) is out of range: valid indexes are \(valid.lowerBound)...\(valid.upperBound), "
                + "or \(-valid.count)...-1 counting from the end"
        case let .indexOutOfRange(index, nil):
            "index \(index) is out of range: the library is empty"
        case let .notFound(id):
            "no album with id \(id)"
        case let .duplicateExternalID(externalID, existing):
            "external id: \(externalID) already belongs to album \(existing)"
        case let .changedDuringEdit(id, attempts):
            "album \(id) was changed by another writer during each of \(attempts) attempts to edit it; try again later"
        }
    }
}
