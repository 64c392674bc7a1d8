import HTTPTypes
import Synchronization

/// One import at a time (a catalog upload or a music folder): another is refused at once, before
/// its body is read, so that concurrent uploads cannot hold their catalogs in memory together.
final class ImportSlot: Sendable {
    private let busy = Atomic(false)

    /// Runs `body` holding the slot.
    /// - Throws: `APIError` 409 while another import holds it.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw APIError(.conflict, "another import is running: try again when it has ended")
        }
        defer { busy.store(false, ordering: .releasing) }
        return try await body()
    }
}
