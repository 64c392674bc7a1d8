/// `{"busy": label}` or `{"busy": null}`: what holds the writes (`ImportSlot.Job.label`), as
/// `GET /api/library` and the `job` event tell it.
struct BusyState: Sendable, Encodable {
    var busy: String?

    init(_ busy: String?) { self.busy = busy }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(busy, forKey: .busy)   // `null` when idle, not left out
    }

    enum CodingKeys: String, CodingKey { case busy }
}
