import AlbumStore
import Hummingbird

/// A refused request: its status and one line, sent as `{"error": "..."}` (a bad query adds
/// where in the query; a bad field value, which `field`).
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// For a bad query: the character offset and length of the place it names.
    var place: (offset: Int, length: Int)?
    /// The field at fault: an album's field as JSON names it.
    var field: String?

    init(_ status: HTTPResponse.Status, _ message: String, place: (offset: Int, length: Int)? = nil, field: String? = nil) {
        self.status = status
        self.message = message
        self.place = place
        self.field = field
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
            return APIError(.badRequest, "\(error)")
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

    var response: Response {
        struct Body: Encodable {
            var error: String
            var offset: Int?
            var length: Int?
            var field: String?
        }
        let body = Body(error: message, offset: place?.offset, length: place?.length, field: field)
        return (try? JSONBody.response(body, status: status)) ?? Response(status: status)
    }
}
