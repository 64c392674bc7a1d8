import AlbumStore
@testable import AlbumStoreServer
import Foundation
import HTTPTypes
import NIOCore
import TestSupport
import Testing

/// `/api/events` under load: a large change set goes out as its counts, and a listener that
/// falls behind is told to reload instead of being sent everything.
struct ServeEventsTests {
    @Test func aSmallChangeIsSentWholeAndALargeOneAsItsCounts() async throws {
        let fixture = try ServerFixture()
        let drafts = (0..<5000).map { AlbumDraft(title: "Album \($0)", artist: "Artist") }
        var text = "", step = 0
        try await fixture.withClient { client in
            _ = try await client.send(uri: "/api/events") { part in
                text += String(buffer: part)
                // Listening: a small change; once it came, a large one; then both are here.
                if step == 0, text.hasPrefix(": keep-alive\n\n") {
                    step = 1
                    _ = try fixture.library.albums.append(AlbumDraft(title: "Heroes", artist: "David Bowie"))
                } else if step == 1, text.components(separatedBy: "event: change").count == 2, text.hasSuffix("\n\n") {
                    step = 2
                    _ = try fixture.library.albums.append(contentsOf: drafts)
                }
                return step == 2 && text.components(separatedBy: "event: change").count == 3 && text.hasSuffix("\n\n")
            }
        }
        let events = text.components(separatedBy: "event: change\ndata: ").dropFirst().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(events.count == 2)
        let small = try JSONSerialization.jsonObject(with: Data(events[0].utf8)) as? [String: Any] ?? [:]
        #expect(((small["tables"] as? [String: Any])?["albums"] as? [String: Any])?["inserted"] as? [Int] == [4])
        #expect(small["is_summary"] == nil)
        let large = try JSONSerialization.jsonObject(with: Data(events[1].utf8)) as? [String: Any] ?? [:]
        #expect(large["is_summary"] as? Bool == true)
        #expect(((large["tables"] as? [String: Any])?["albums"] as? [String: Any])?["inserted_count"] as? Int == 5000)
        #expect(events[1].utf8.count < 500, "\(events[1].utf8.count) bytes")
    }

    @Test func aListenerThatFallsBehindKeepsTheNewestAndIsToldToReload() throws {
        let fixture = try ServerFixture()
        let hub = EventHub(library: fixture.library)
        let slow = hub.subscribe()
        for _ in 0..<(EventHub.bufferSize + 10) { hub.publish(.keepAlive) }
        #expect(slow.tookLoss())
        #expect(!slow.tookLoss())   // told once
        #expect(ServerEvent.resync.text.contains("\"is_overflow\":true"))
    }
}
