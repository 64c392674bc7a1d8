/// The values `Library.observe(_:_:)` computes. Each iteration (each `for try await`, each
/// `makeAsyncIterator()`) is an observation of its own: several consumers each get every value,
/// and cancelling one ends only that one. Holds its library weakly: iteration ends once the
/// library is released.
public struct LibraryObservation<Value: Sendable>: AsyncSequence, Sendable {
    weak var library: Library?
    let tables: Set<ObservedTable>
    let value: @Sendable (Library) async throws -> Value

    public func makeAsyncIterator() -> AsyncThrowingStream<Value, Error>.Iterator {
        guard let library else { return AsyncThrowingStream { $0.finish() }.makeAsyncIterator() }
        return library.observation(of: tables, value).makeAsyncIterator()
    }
}
