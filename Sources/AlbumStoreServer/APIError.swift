import AlbumStore
import Hummingbird

/// A refused request: its status and one line, sent as `{"error": "..."}` (a bad query adds
/// where in the query; a bad catalog or field value, which `line` and `field`; a write refused
/// during an import, the import's label as `busy`).
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// For a bad query: the character offset and length of the place it names.
    var place: (offset: Int, length: Int)?
    /// For a bad catalog: the 1-based line at fault.
    var line: Int?
    /// The field at fault: a catalog's column or key, or an album's field as JSON names it.
    var field: String?
    /// The label of the import that holds the writes (`ImportSlot.Job.label`).
    var busy: String?

    init(
        _ status: HTTPResponse.Status, _ message: String, place: (offset: Int, length: Int)? = nil,
        line: Int? = nil, field: String? = nil, busy: String? = nil
    ) {
        self.status = status
        self.message = message
        self.place = place
        self.line = line
        self.field = field
        self.busy = busy
    }

    /// The API's answer to `error`, thrown by the library, Hummingbird or a route.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as HTTPError:
            return APIError(error.status, error.body ?? error.status.reasonPhrase.lowercased())
        case let error as QueryError:
            return APIError(.badRequest, error.reason, place: (error.offset, error.length))
        case let error as AlbumError:
            switch error {
            case .notFound: return APIError(.notFound, "\(error)")
            case .duplicateExternalID: return APIError(.conflict, "\(error)", field: AlbumField.externalID.jsonKey)
            case let .invalid(field, _): return APIError(.badRequest, "\(error)", field: AlbumField(name: field)?.jsonKey)
            default: return APIError(.badRequest, "\(error)")
            }
        case let error as HistoryError:
            return APIError(.conflict, "\(error)")
        case let error as SessionError:
            switch error {
            case .noSuchSnapshot: return APIError(.notFound, "\(error)")
            case .snapshotExists: return APIError(.conflict, "\(error)")
            default: return APIError(.badRequest, "\(error)")
            }
        case let error as CoverError:
            switch error {
            case .notAnImage, .implausibleSize, .incompleteImage: return APIError(.unsupportedMediaType, "\(error)")
            case .tooLarge: return APIError(.contentTooLarge, "\(error)")
            case .noCover: return APIError(.notFound, "\(error)")
            default: return APIError(.badRequest, "\(error)")
            }
        case let error as ImportError:
            return importRefusal(error)
        case let error as StorageError where error.reason == .busy:
            return APIError(.serviceUnavailable, "\(error)")
        case let error as StorageError where error.reason == .readOnly:
            return APIError(.forbidden, "\(error)")
        case let error as DecodingError:
            return APIError(.badRequest, "the request body is not the JSON expected: \(JSONBody.describe(error))")
        default:
            return APIError(.internalServerError, "\(error)")
        }
    }

    /// A refused import in the words of `albumstore import`: the file, the line and the field at
    /// fault (an invalid row's too, not only their count), with `line` and `field` when known.
    private static func importRefusal(_ error: ImportError) -> APIError {
        switch error {
        case let .unreadable(_, line, _):
            return APIError(.badRequest, "\(error)", line: line > 0 ? line : nil)
        case let .conflict(rejection, _):
            return APIError(.badRequest, "\(error)", line: rejection.line, field: rejection.field)
        case let .invalidRows(summary):
            guard let first = summary.rejections.first else { return APIError(.badRequest, "\(error)") }
            let others = summary.rejected - 1
            return APIError(
                .badRequest,
                "\(first); import refused, nothing changed"
                    + (others > 0 ? " (and \(others) more invalid \(others == 1 ? "row" : "rows"))" : ""),
                line: first.line, field: first.field)
        case .missingFields:
            return APIError(.badRequest, "\(error)")
        }
    }

    var response: Response {
        struct Body: Encodable {
            var error: String
            var offset: Int?
            var length: Int?
            var line: Int?
            var field: String?
            var busy: String?
        }
        let body = Body(error: message, offset: place?.offset, length: place?.length, line: line, field: field, busy: busy)
        return (try? JSONBody.response(body, status: status)) ?? Response(status: status)
    }
}
