import AlbumStore
import ArgumentParser
import FoundationEssentials

struct StateGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the JSON value saved under a key.",
        discussion: """
            Prints the value as compact JSON (whatever --format), keys sorted. A missing key is \
            an error (exit 1).

            Example: albumstore state get player
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The key.") var key: String

    func run() throws {
        guard let value = try store.openLibrary(.readOnly).session.value(forKey: key) else {
            throw SessionError.invalidKey(key, reason: "no value is saved under it")
        }
        print(value)
    }
}

struct StateSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Save a JSON value under a key (not undoable).",
        discussion: """
            The value is any JSON text: an object, an array, a string in quotes, a number, \
            true, false or null; at most 64 KiB. Saving the value already saved writes nothing.

            Examples:
              albumstore state set player '{"volume": 0.8, "shuffle": true}'
              albumstore state set last-search '"artist:bowie"'
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The key.") var key: String
    @Argument(help: "The value, as JSON text.") var json: String

    func run() throws {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(json.utf8))
        } catch let error as JSONValue.SyntaxError {
            throw SessionError.invalidKey(key, reason: "the value is \(error)" + Self.quotingHint(key: key, text: json))
        }
        let saved = try store.openLibrary(.readWrite).session.setValue(value, forKey: key)
        inform(saved ? "Saved \(key)." : "\(key) is unchanged: nothing was written.")
    }

    /// How to save `text` as a JSON string, for a value that is not JSON and does not look as if
    /// it meant to be (`hello`, not `{"a": 1` or `[1,`): `; to save the text, quote it as JSON:
    /// albumstore state set note '"hello"'`.
    static func quotingHint(key: String, text: String) -> String {
        guard let first = text.first(where: { !$0.isWhitespace }), !"{[\"".contains(first) else { return "" }
        return "; to save the text, quote it as JSON: albumstore state set \(ShellWord.quoted(key)) "
            + ShellWord.quoted(JSONValue.string(text).description)
    }
}

struct StateUnset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract: "Remove a key and its value (not undoable).",
        discussion: "Example: albumstore state unset player")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The key.") var key: String

    func run() throws {
        let removed = try store.openLibrary(.readWrite).session.removeValue(forKey: key)
        inform(removed ? "Removed \(key)." : "No value was saved under \(key): nothing to remove.")
    }
}
