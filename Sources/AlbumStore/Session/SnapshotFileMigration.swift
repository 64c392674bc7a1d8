/// Brings a snapshot file of an older format version to the current one, step by step, before
/// it is read: each step rewrites the JSON document of one version into the next.
///
/// Version 1 (the first layout) kept the current album as a bare index, `state.current_index`,
/// without the album's id, the tab order as `state.tabs`, and no default tab order. Version 2
/// keeps `state.current_album` as `{"index", "album_id"}` (the id null when migrated: reading
/// it back clamps the index), `state.tab_order` and `state.default_tab_order`.
enum SnapshotFileMigration {
    /// `document` (at `version`) as a document of `SnapshotFile.currentVersion`.
    /// - Throws: `JSONShape.Mismatch` for a version below 1 or a value of the wrong type.
    static func migrate(_ document: JSONShape, from version: Int) throws -> JSONShape {
        guard version >= 1 else {
            throw JSONShape.Mismatch(place: "format_version", reason: "version \(version) does not exist; versions start at 1")
        }
        var document = document
        for step in version..<SnapshotFile.currentVersion {
            document = try steps[step - 1](document)
        }
        return document
    }

    /// `steps[n - 1]` turns version n into n + 1.
    private static let steps: [@Sendable (JSONShape) throws -> JSONShape] = [version1To2]

    private static func version1To2(_ document: JSONShape) throws -> JSONShape {
        var root = try document.members()
        let stateShape = try document.member("state")
        var state = try stateShape.members()
        if let index = try stateShape.optionalMember("current_index") {
            state["current_album"] = .object(["index": .integer(try index.integer()), "album_id": .null])
        }
        state["tab_order"] = state["tabs"] ?? .null
        state["current_index"] = nil
        state["tabs"] = nil
        root["state"] = .object(state)
        root["format_version"] = .integer(2)
        return JSONShape(value: .object(root), place: document.place)
    }
}
